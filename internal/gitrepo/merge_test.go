package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// featRepo makes a repository on main with a worktree on branch feat, and
// an identity for the commits MergeBack makes.
func featRepo(t *testing.T) (repo, wt string) {
	t.Helper()
	repo = newRepo(t, "proj")
	git(t, repo, "config", "user.name", "Test")
	git(t, repo, "config", "user.email", "test@example.com")
	git(t, repo, "config", "commit.gpgsign", "false")
	wt, err := AddWorktree(t.Context(), repo, "feat", "")
	if err != nil {
		t.Fatal(err)
	}
	return repo, wt
}

func commitFile(t *testing.T, dir, name, content string) {
	t.Helper()
	write(t, filepath.Join(dir, name), content)
	git(t, dir, "add", "--", name)
	git(t, dir, "commit", "-q", "-m", "change "+name)
}

// assertClean fails unless the main work tree is clean and not mid-merge.
func assertClean(t *testing.T, repo string) {
	t.Helper()
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Fatalf("main work tree not clean:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "MERGE_HEAD")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("MERGE_HEAD left behind: %v", err)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "SQUASH_MSG")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("SQUASH_MSG left behind: %v", err)
	}
}

func TestMergeBackMerge(t *testing.T) {
	repo, wt := featRepo(t)
	commitFile(t, wt, "a.txt", "a\n")
	if _, err := MergeBack(t.Context(), wt, "feat", "main", false, ""); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "show", "HEAD:a.txt"); got != "a" {
		t.Fatalf("a.txt on main = %q", got)
	}
	if parents := strings.Fields(git(t, repo, "log", "-1", "--format=%P")); len(parents) != 2 {
		t.Fatalf("HEAD parents = %v, want a merge commit", parents)
	}
	if msg := git(t, repo, "log", "-1", "--format=%B"); msg != "Merge branch 'feat'" {
		t.Fatalf("merge message %q, want git's default for the short branch name", msg)
	}
	assertClean(t, repo)
	merged, ahead, err := Merged(t.Context(), repo, "feat", "main")
	if err != nil || !merged || ahead != 0 {
		t.Fatalf("Merged = %v, %d, %v", merged, ahead, err)
	}
}

func TestMergeBackSquash(t *testing.T) {
	repo, wt := featRepo(t)
	commitFile(t, wt, "a.txt", "a\n")
	commitFile(t, wt, "b.txt", "b\n")
	if _, err := MergeBack(t.Context(), repo, "feat", "main", true, "Add a and b"); err != nil {
		t.Fatal(err)
	}
	if parents := strings.Fields(git(t, repo, "log", "-1", "--format=%P")); len(parents) != 1 {
		t.Fatalf("HEAD parents = %v, want one", parents)
	}
	if msg := git(t, repo, "log", "-1", "--format=%s"); msg != "Add a and b" {
		t.Fatalf("message = %q", msg)
	}
	if files := git(t, repo, "ls-files"); files != "README\na.txt\nb.txt" {
		t.Fatalf("files on main = %q", files)
	}
	assertClean(t, repo)
	// Still ahead by ancestry, but its changes are in main: merged.
	merged, ahead, err := Merged(t.Context(), repo, "feat", "main")
	if err != nil || !merged || ahead != 2 {
		t.Fatalf("Merged = %v, %d, %v; want true, 2", merged, ahead, err)
	}
}

func TestMergeBackConflictAborts(t *testing.T) {
	for _, squash := range []bool{false, true} {
		t.Run(map[bool]string{false: "merge", true: "squash"}[squash], func(t *testing.T) {
			repo, wt := featRepo(t)
			commitFile(t, wt, "README", "theirs\n")
			commitFile(t, wt, "c.txt", "no conflict\n")
			commitFile(t, repo, "README", "ours\n")
			head := git(t, repo, "rev-parse", "HEAD")
			_, err := MergeBack(t.Context(), repo, "feat", "main", squash, "")
			var ce *ConflictError
			if !errors.As(err, &ce) || !slices.Equal(ce.Files, []string{"README"}) {
				t.Fatalf("err = %v, want a conflict in README", err)
			}
			assertClean(t, repo)
			if got := git(t, repo, "rev-parse", "HEAD"); got != head {
				t.Fatalf("HEAD moved to %s", got)
			}
			if _, err := os.Stat(filepath.Join(repo, "c.txt")); !errors.Is(err, os.ErrNotExist) {
				t.Fatal("c.txt of the aborted merge left in the work tree")
			}
			if merged, _, err := Merged(t.Context(), repo, "feat", "main"); err != nil || merged {
				t.Fatalf("Merged = %v, %v; want false", merged, err)
			}
		})
	}
}

func TestMergeBackRefuses(t *testing.T) {
	repo, wt := featRepo(t)
	if _, err := MergeBack(t.Context(), repo, "feat", "main", false, ""); !errors.Is(err, ErrNothingToMerge) {
		t.Fatalf("no commits: err = %v", err)
	}
	commitFile(t, wt, "a.txt", "a\n")
	write(t, filepath.Join(repo, "README"), "edited\n")
	if _, err := MergeBack(t.Context(), repo, "feat", "main", false, ""); !errors.Is(err, ErrDirty) {
		t.Fatalf("dirty: err = %v", err)
	}
	git(t, repo, "checkout", "-q", "--", "README")
	git(t, repo, "checkout", "-q", "-b", "other")
	if _, err := MergeBack(t.Context(), repo, "feat", "main", false, ""); !errors.Is(err, ErrWrongBranch) {
		t.Fatalf("wrong branch: err = %v", err)
	}
	if got := git(t, repo, "log", "--format=%s", "main"); got != "init" {
		t.Fatalf("main changed: %q", got)
	}
}

func TestStateOf(t *testing.T) {
	_, wt := featRepo(t)
	st, err := StateOf(t.Context(), wt, "feat", "main")
	if err != nil || st.Dirty || !st.Merged || st.Ahead != 0 || st.DiskBytes == 0 {
		t.Fatalf("fresh: %+v, %v", st, err)
	}
	commitFile(t, wt, "a.txt", "a\n")
	write(t, filepath.Join(wt, "untracked"), "x")
	st, err = StateOf(t.Context(), wt, "feat", "main")
	if err != nil || !st.Dirty || st.Merged || st.Ahead != 1 {
		t.Fatalf("after work: %+v, %v", st, err)
	}
}

func TestDiskUseDoesNotFollowSymlinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "big"), strings.Repeat("x", 1<<20))
	write(t, filepath.Join(dir, "small"), "12345")
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if n, trunc := DiskUse(dir, 100); n != 5 || trunc {
		t.Fatalf("DiskUse = %d, %v; want 5, false", n, trunc)
	}
	if _, trunc := DiskUse(dir, 2); !trunc {
		t.Fatal("a walk over its limit is not reported truncated")
	}
}

func TestCompareURL(t *testing.T) {
	tests := []struct{ remote, want string }{
		{"https://github.com/acme/app.git", "https://github.com/acme/app/compare/main...feat/x?expand=1"},
		{"git@github.com:acme/app.git", "https://github.com/acme/app/compare/main...feat/x?expand=1"},
		{"ssh://git@github.com:22/acme/app", "https://github.com/acme/app/compare/main...feat/x?expand=1"},
		{"https://gitlab.com/grp/sub/app.git", "https://gitlab.com/grp/sub/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=feat%2Fx&merge_request%5Btarget_branch%5D=main"},
		{"git@gitlab.com:grp/app.git", "https://gitlab.com/grp/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=feat%2Fx&merge_request%5Btarget_branch%5D=main"},
	}
	for _, tc := range tests {
		got, err := CompareURL(tc.remote, "feat/x", "main")
		if err != nil || got != tc.want {
			t.Errorf("CompareURL(%q) = %q, %v; want %q", tc.remote, got, err, tc.want)
		}
	}
	for _, bad := range []string{"https://example.com/a/b.git", "/srv/git/app.git", "file:///srv/app", "github.com"} {
		if u, err := CompareURL(bad, "feat", "main"); !errors.Is(err, ErrUnknownHost) {
			t.Errorf("CompareURL(%q) = %q, %v; want ErrUnknownHost", bad, u, err)
		}
	}
}
