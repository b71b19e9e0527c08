package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestStatus runs git status on a real repository: changed, added,
// untracked and ignored paths, with untracked and ignored directories
// reported once; paths relative to the asked directory; a directory asked
// about inside an ignored one comes back as that ancestor.
func TestStatus(t *testing.T) {
	repo := newRepo(t, "r")
	for _, d := range []string{"src/deep", "node_modules/pkg/lib", "fresh/inner"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(repo, ".gitignore"), "node_modules\n*.log\n")
	write(t, filepath.Join(repo, "src/a.go"), "a\n")
	write(t, filepath.Join(repo, "src/deep/b.go"), "b\n")
	write(t, filepath.Join(repo, "node_modules/pkg/lib/x.js"), "x\n")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "two")
	write(t, filepath.Join(repo, "src/deep/b.go"), "changed\n")
	write(t, filepath.Join(repo, "src/staged.go"), "s\n")
	git(t, repo, "add", "src/staged.go")
	write(t, filepath.Join(repo, "src/new [1].go"), "n\n")
	write(t, filepath.Join(repo, "src/run.log"), "l\n")
	write(t, filepath.Join(repo, "fresh/inner/f"), "f\n")

	got := func(dir, sub string) []string {
		t.Helper()
		cs, err := Status(t.Context(), dir, sub)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, string([]byte{c.X, c.Y})+" "+c.Path)
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		name, dir, sub string
		want           []string
	}{
		{"whole tree", repo, "", []string{" M src/deep/b.go", "!! node_modules/", "!! src/run.log", "?? fresh/", "?? src/new [1].go", "A  src/staged.go"}},
		{"one folder, a name with glob characters", repo, "src", []string{" M src/deep/b.go", "!! src/run.log", "?? src/new [1].go", "A  src/staged.go"}},
		{"asked from a subdirectory", filepath.Join(repo, "src"), "deep", []string{" M deep/b.go"}},
		{"inside an ignored folder", repo, "node_modules/pkg", []string{"!! node_modules/"}},
		{"an untracked folder itself", repo, "fresh/inner", []string{"?? fresh/inner/"}},
		{"dir itself ignored", filepath.Join(repo, "node_modules/pkg"), "", []string{"!! "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if g := got(c.dir, c.sub); !slices.Equal(g, c.want) {
				t.Fatalf("status = %q, want %q", g, c.want)
			}
		})
	}
}

func TestStatusOutsideRepo(t *testing.T) {
	_, err := Status(t.Context(), t.TempDir(), "")
	if !errors.Is(err, ErrNotRepo) {
		t.Fatalf("err = %v, want ErrNotRepo", err)
	}
}
