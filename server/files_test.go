package server

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree creates empty files (and their directories) under dir.
func writeTree(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSessionFiles(t *testing.T) {
	e := newEnv(t, nil)
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	writeTree(t, repo, ".gitignore", "cmd/main.go", "internal/filelist/rank.go", "docs/README.md", "tmp/scratch.go", "notes.txt")
	if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("tmp/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "cmd", "internal", "docs")
	s := e.createSession(repo)
	files := func(query string) []string {
		t.Helper()
		a := e.do("GET", "/api/sessions/"+s.ID+"/files"+query, nil)
		if a.status != http.StatusOK {
			t.Fatalf("GET files%s: %d %s", query, a.status, a.body)
		}
		var v struct{ Files []string }
		a.json(t, &v)
		return v.Files
	}
	// No q: every file (tracked and untracked-not-ignored), shallow first.
	if got, want := files(""), []string{"notes.txt", ".gitignore", "cmd/main.go", "docs/README.md", "internal/filelist/rank.go"}; !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	if got, want := files("?q=rank&limit=1"), []string{"internal/filelist/rank.go"}; !slices.Equal(got, want) {
		t.Fatalf("files(rank) = %q, want %q", got, want)
	}
	if got := files("?q=" + url.QueryEscape("scratch")); len(got) != 0 {
		t.Fatalf("an ignored file was offered: %q", got)
	}
	// An empty answer is [], not null.
	if a := e.do("GET", "/api/sessions/"+s.ID+"/files?q=zzzz", nil); string(a.body) != "{\"files\":[]}\n" {
		t.Fatalf("no match: %s", a.body)
	}
}

func TestSessionFilesErrors(t *testing.T) {
	e := newEnv(t, nil)
	dir := t.TempDir()
	s := e.createSession(dir)
	tests := []struct {
		path   string
		status int
		code   string
	}{
		{"/api/sessions/" + s.ID + "/files?limit=0", 400, "invalid_field"},
		{"/api/sessions/" + s.ID + "/files?limit=51", 400, "invalid_field"},
		{"/api/sessions/" + s.ID + "/files?limit=ten", 400, "invalid_field"},
		{"/api/sessions/" + s.ID + "/files?limit=-1", 400, "invalid_field"},
		{"/api/sessions/" + s.ID + "/files?q=" + strings.Repeat("a", 1025), 400, "invalid_field"},
		{"/api/sessions/nope/files", 404, "not_found"},
	}
	for _, tt := range tests {
		a := e.do("GET", tt.path, nil)
		if a.status != tt.status || a.errCode(t) != tt.code {
			t.Errorf("GET %.60s: %d %s, want %d %s", tt.path, a.status, a.body, tt.status, tt.code)
		}
	}
	// The session's directory removed: 409, said plainly.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	a := e.do("GET", "/api/sessions/"+s.ID+"/files", nil)
	if a.status != http.StatusConflict || a.errCode(t) != "conflict" {
		t.Fatalf("removed cwd: %d %s, want 409 conflict", a.status, a.body)
	}
}
