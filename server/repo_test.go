package server

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

func TestInspectRepo(t *testing.T) {
	e := newEnv(t, nil)
	repo := gitRepo(t)
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	type answerBody struct {
		Path   string  `json:"path"`
		Repo   bool    `json:"repo"`
		Root   string  `json:"root"`
		Branch *string `json:"branch"`
		Dirty  *bool   `json:"dirty"`
	}
	get := func(q string) answerBody {
		t.Helper()
		a := e.do("GET", "/api/git?"+q, nil)
		if a.status != http.StatusOK {
			t.Fatalf("GET /api/git?%s: %d %s", q, a.status, a.body)
		}
		var v answerBody
		a.json(t, &v)
		return v
	}

	v := get("path=" + url.QueryEscape(sub))
	if !v.Repo || v.Root != repo || v.Branch == nil || *v.Branch != "main" || v.Dirty != nil {
		t.Fatalf("subdirectory of a repo: %+v", v)
	}
	v = get("path=" + url.QueryEscape(repo) + "&status=true")
	if v.Dirty == nil || *v.Dirty {
		t.Fatalf("clean repo with status: %+v", v)
	}
	if err := os.WriteFile(filepath.Join(repo, "new.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	v = get("path=" + url.QueryEscape(repo) + "&status=true")
	if v.Dirty == nil || !*v.Dirty {
		t.Fatalf("untracked file not reported dirty: %+v", v)
	}
	for _, dir := range []string{plain, filepath.Join(plain, "missing")} {
		if v := get("path=" + url.QueryEscape(dir)); v.Repo || v.Branch != nil || v.Path != dir {
			t.Fatalf("%s is no repo, got %+v", dir, v)
		}
	}
	for _, q := range []string{"", "path=relative/dir"} {
		a := e.do("GET", "/api/git?"+q, nil)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" {
			t.Fatalf("GET /api/git?%s: %d %s, want 400 invalid_field", q, a.status, a.body)
		}
	}
	if a := e.do("GET", "/api/git?path="+url.QueryEscape(repo), nil, "Authorization", ""); a.status != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", a.status)
	}
}
