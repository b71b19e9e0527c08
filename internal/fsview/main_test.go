package fsview_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/fsview"
)

func TestMain(m *testing.M) {
	// A private HOME keeps the developer's ~/.gitconfig out of the tests.
	home, err := os.MkdirTemp("", "fsview-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		os.RemoveAll(home)
		if bigDir != "" {
			os.RemoveAll(bigDir)
		}
		os.Exit(code)
	}))
}

// fixture is a tree in a temp dir, beside a folder "outside" that holds a
// secret no operation on the tree may read or change.
type fixture struct {
	base, dir, outside string
	tree               *fsview.Tree
}

const secret = "SECRET outside the tree"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{base: base, dir: filepath.Join(base, "tree"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{f.dir, f.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(f.outside, "secret.txt"), secret)
	tree, err := fsview.Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tree.Close() })
	f.tree = tree
	return f
}

// path is a path in the tree on disk.
func (f *fixture) path(rel string) string { return filepath.Join(f.dir, filepath.FromSlash(rel)) }

func (f *fixture) write(t *testing.T, rel, content string) {
	t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, content)
}

func (f *fixture) read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(f.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) symlink(t *testing.T, target, rel string) {
	t.Helper()
	if err := os.Symlink(target, f.path(rel)); err != nil {
		t.Fatal(err)
	}
}

// checkSecret fails the test when the secret outside the tree changed.
func (f *fixture) checkSecret(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.outside, "secret.txt"))
	if err != nil || string(b) != secret {
		t.Fatalf("the file outside the tree changed: %q, %v", b, err)
	}
	entries, _ := os.ReadDir(f.outside)
	if len(entries) != 1 {
		t.Fatalf("the folder outside the tree has %d entries, want 1", len(entries))
	}
}

// noTemps fails the test when a temporary file of a write is left
// anywhere in the tree.
func (f *fixture) noTemps(t *testing.T) {
	t.Helper()
	_ = filepath.WalkDir(f.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".agentdesk-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
