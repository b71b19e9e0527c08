package filelist

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestListGit(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	writeFiles(t, repo, ".gitignore", "src/main.go", "src/util/strings.go", "README.md",
		"build/out.bin", "debug.log", "node_modules/x/index.js", "new file.txt")
	if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("build/\n*.log\nnode_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", ".gitignore", "src", "README.md")
	git(t, repo, "commit", "-q", "-m", "init")

	got, err := List(t.Context(), repo)
	if err != nil {
		t.Fatal(err)
	}
	// Tracked plus untracked-not-ignored ("new file.txt"); ignored never.
	want := []string{".gitignore", "README.md", "new file.txt", "src/main.go", "src/util/strings.go"}
	if !slices.Equal(got, want) {
		t.Fatalf("List = %q\nwant    %q", got, want)
	}
	// In a subdirectory: only what is below it, relative to it.
	got, err = List(t.Context(), filepath.Join(repo, "src"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"main.go", "util/strings.go"}; !slices.Equal(got, want) {
		t.Fatalf("List(src) = %q, want %q", got, want)
	}
}

func TestWalkOutsideGit(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeFiles(t, outside, "secret.txt", "d/leak.txt")
	writeFiles(t, dir, "a.go", "sub/b.go", "node_modules/pkg/index.js", "sub/node_modules/x.js",
		".git/config", "dist/app.js", "keep/dist.txt", "x.tmp", "sub/y.tmp", "logs/today.txt")
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("# built\ndist/\n*.tmp\n/logs\n!keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "escape.txt"))
	symlink(t, "../../"+filepath.Base(outside)+"/secret.txt", filepath.Join(dir, "sub", "rel-escape.txt"))
	symlink(t, outside, filepath.Join(dir, "outdir"))     // a directory out of the tree
	symlink(t, "a.go", filepath.Join(dir, "alias.go"))    // stays inside: listed
	symlink(t, "sub", filepath.Join(dir, "subdir-alias")) // a directory: not entered
	symlink(t, "missing", filepath.Join(dir, "dangling"))

	got, err := List(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "a.go", "alias.go", "keep/dist.txt", "sub/b.go"}
	if !slices.Equal(got, want) {
		t.Fatalf("List = %q\nwant    %q", got, want)
	}
}

func TestWalkBound(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		writeFiles(t, dir, filepath.Join("d", string(rune('a'+i%26))+string(rune('a'+i/26)), "f.txt"))
	}
	got, err := walkN(t.Context(), dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 {
		t.Fatalf("walkN(10) listed %d files, want 10", len(got))
	}
	// Only directories: the visit bound ends the walk with nothing listed.
	empty := t.TempDir()
	for i := range 50 {
		if err := os.MkdirAll(filepath.Join(empty, "e", string(rune('a'+i%26))+string(rune('a'+i/26))), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := walkN(t.Context(), empty, 5); err != nil || len(got) != 0 {
		t.Fatalf("walkN(dirs only) = %q, %v", got, err)
	}
}

func TestListCancelled(t *testing.T) {
	dir := t.TempDir()
	for i := range 1100 {
		writeFiles(t, dir, filepath.Join("f", string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := List(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Fatalf("List with a cancelled context: err = %v, want context.Canceled", err)
	}
	if _, err := walkN(ctx, dir, MaxFiles); !errors.Is(err, context.Canceled) {
		t.Fatalf("walk with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestListMissingDir(t *testing.T) {
	_, err := List(t.Context(), filepath.Join(t.TempDir(), "gone"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("List(missing) err = %v, want ErrNotExist", err)
	}
}
