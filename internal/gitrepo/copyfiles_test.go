package gitrepo

import (
	"os"
	"path/filepath"
	"slices"
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
