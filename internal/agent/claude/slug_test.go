package claude_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// TestSlugFixtures checks every "cwd  =>  dir" example the real CLI made.
func TestSlugFixtures(t *testing.T) {
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "g_slugs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cwd, want, ok := strings.Cut(sc.Text(), "  =>  ")
		if !ok || strings.HasPrefix(cwd, "#") {
			continue
		}
		n++
		if got := claude.Slug(cwd); got != want {
			t.Errorf("Slug(%q)\n got %q\nwant %q", cwd, got, want)
		}
	}
	if n < 6 {
		t.Fatalf("only %d examples read", n)
	}
}

func TestSlug(t *testing.T) {
	long := "/" + strings.Repeat("a", 250)
	tests := []struct{ in, want string }{
		{"/srv/work", "-srv-work"},
		{"/srv/a.b_c d/Up-Case", "-srv-a-b-c-d-Up-Case"},
		{"/srv/ünï", "-srv--n-"},
		{"/srv/e😀x", "-srv-e--x"},
		{"", ""},
		{"/" + strings.Repeat("b", 199), "-" + strings.Repeat("b", 199)}, // exactly 200: no hash
	}
	for _, tt := range tests {
		if got := claude.Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	got := claude.Slug(long)
	if len(got) <= 201 || got[:201] != "-"+strings.Repeat("a", 199)+"-" {
		t.Errorf("Slug(long) = %q", got)
	}
}

func TestSessionFilePath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real dir")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("/cfg", "projects", claude.Slug(real), "sid.jsonl")
	for _, cwd := range []string{real, link, filepath.Join(root, "missing")} {
		got := claude.SessionFilePath("/cfg", cwd, "sid")
		if cwd == filepath.Join(root, "missing") {
			want = filepath.Join("/cfg", "projects", claude.Slug(cwd), "sid.jsonl")
		}
		if got != want {
			t.Errorf("SessionFilePath(%q) = %q, want %q", cwd, got, want)
		}
	}
}
