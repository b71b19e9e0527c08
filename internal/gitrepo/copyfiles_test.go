package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCopyUntrackedSkipsTrackedAndSymlinks copies into an empty folder, so
// that only CopyUntracked's own checks keep tracked files and symlinks out.
func TestCopyUntrackedSkipsTrackedAndSymlinks(t *testing.T) {
	repo := newRepo(t, "proj")
	write(t, filepath.Join(repo, ".env.tracked"), "tracked\n")
	git(t, repo, "add", ".env.tracked")
	git(t, repo, "commit", "-q", "-m", "tracked env")
	write(t, filepath.Join(repo, ".env"), "secret\n")
	outside := filepath.Join(t.TempDir(), "secret")
	write(t, outside, "outside\n")
	if err := os.Symlink(outside, filepath.Join(repo, ".env.link")); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	got, err := CopyUntracked(t.Context(), repo, dst, []string{".env*", "../*", "README"})
	if err != nil || !slices.Equal(got, []string{".env"}) {
		t.Fatalf("copied %v, %v; want [.env]", got, err)
	}
	entries, _ := os.ReadDir(dst)
	if len(entries) != 1 {
		t.Fatalf("dst holds %d entries, want 1", len(entries))
	}
}

// TestCopyUntrackedStaysInsideTheWorktree: HEAD tracks cfg as a symlink to
// a folder outside, while the work tree holds a real cfg folder with an
// untracked .env in it. The new worktree's checkout makes the link; the
// copy must not write through it into the outside folder.
func TestCopyUntrackedStaysInsideTheWorktree(t *testing.T) {
	repo := newRepo(t, "proj")
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(repo, "cfg")); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "cfg")
	git(t, repo, "commit", "-q", "-m", "cfg links elsewhere")
	if err := os.Remove(filepath.Join(repo, "cfg")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "cfg", ".env"), "secret\n")
	write(t, filepath.Join(repo, ".env"), "top\n")
	wt, err := AddWorktree(t.Context(), repo, "feat", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = RemoveWorktree(context.Background(), wt, true) }()
	if fi, err := os.Lstat(filepath.Join(wt, "cfg")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the checkout made no cfg link: %v %v", fi, err)
	}

	got, err := CopyUntracked(t.Context(), repo, wt, []string{".env*", "cfg/.env*"})
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("the copy wrote %s outside the worktree", entries[0].Name())
	}
	if !slices.Equal(got, []string{".env"}) || err == nil || !strings.Contains(err.Error(), "cfg/.env not copied") {
		t.Fatalf("copied %v, %v; want [.env] and an error naming cfg/.env", got, err)
	}
	if b, err := os.ReadFile(filepath.Join(wt, ".env")); err != nil || string(b) != "top\n" {
		t.Fatalf(".env in the worktree: %q %v", b, err)
	}
}
