package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestAddAndRemoveWorktree(t *testing.T) {
	repo := newRepo(t, "proj")
	path, err := AddWorktree(t.Context(), repo, "feat/login", "")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(repo), "proj-feat-login")
	if path != want {
		t.Fatalf("path = %q, want %q", path, want)
	}
	if got := git(t, path, "rev-parse", "--abbrev-ref", "HEAD"); got != "feat/login" {
		t.Fatalf("worktree branch = %q", got)
	}
	if _, err := os.Stat(filepath.Join(path, "README")); err != nil {
		t.Fatalf("worktree not checked out: %v", err)
	}
	if err := RemoveWorktree(t.Context(), path, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("worktree still on disk: %v", err)
	}
	if got := git(t, repo, "branch", "--list", "feat/login"); got == "" {
		t.Fatal("branch was deleted with the worktree")
	}
}

func TestAddWorktreeParentDir(t *testing.T) {
	repo := newRepo(t, "proj")
	parent := t.TempDir()
	path, err := AddWorktree(t.Context(), filepath.Join(repo), "x", parent)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(parent, "proj-x") {
		t.Fatalf("path = %q", path)
	}
	if err := RemoveWorktree(t.Context(), path, false); err != nil {
		t.Fatal(err)
	}
}

func TestAddWorktreeErrors(t *testing.T) {
	repo := newRepo(t, "proj")
	git(t, repo, "branch", "taken")
	if err := os.Mkdir(filepath.Join(filepath.Dir(repo), "proj-occupied"), 0o755); err != nil {
		t.Fatal(err)
	}
	unborn := filepath.Join(t.TempDir(), "unborn")
	git(t, filepath.Dir(unborn), "init", "-q", "-b", "main", unborn)
	tests := []struct {
		name, repo, branch, parent string
		want                       error
	}{
		{"missing repo", filepath.Join(repo, "nope"), "b", "", ErrNotRepo},
		{"not a repo", t.TempDir(), "b", "", ErrNotRepo},
		{"branch exists", repo, "taken", "", ErrBranchExists},
		{"main exists", repo, "main", "", ErrBranchExists},
		{"leading dash", repo, "-b", "", ErrInvalidBranch},
		{"option", repo, "--upload-pack=touch /tmp/x", "", ErrInvalidBranch},
		{"double dot", repo, "a..b", "", ErrInvalidBranch},
		{"space", repo, "a b", "", ErrInvalidBranch},
		{"colon", repo, "HEAD:file", "", ErrInvalidBranch},
		{"previous branch", repo, "@{-1}", "", ErrInvalidBranch},
		{"empty", repo, "", "", ErrInvalidBranch},
		{"lock suffix", repo, "x.lock", "", ErrInvalidBranch},
		{"path exists", repo, "occupied", "", ErrPathExists},
		{"missing parent", repo, "p", filepath.Join(t.TempDir(), "nope"), nil},
		{"unborn head", unborn, "u", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, repo, unborn)
			path, err := AddWorktree(t.Context(), tt.repo, tt.branch, tt.parent)
			if err == nil {
				t.Fatalf("AddWorktree = %q, want an error", path)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if after := snapshot(t, repo, unborn); after != before {
				t.Fatalf("disk changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// snapshot lists the parents of the repos, their branches and worktrees.
func snapshot(t *testing.T, repos ...string) string {
	t.Helper()
	var s string
	for _, r := range repos {
		entries, err := os.ReadDir(filepath.Dir(r))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			s += e.Name() + " "
		}
		s += "| " + git(t, r, "branch", "--list") + " | " + git(t, r, "worktree", "list", "--porcelain") + "\n"
	}
	return s
}

func TestRemoveWorktreeDirty(t *testing.T) {
	tests := []struct {
		name  string
		dirty func(t *testing.T, wt string)
	}{
		{"modified", func(t *testing.T, wt string) { write(t, filepath.Join(wt, "README"), "changed\n") }},
		{"staged", func(t *testing.T, wt string) {
			write(t, filepath.Join(wt, "new"), "x\n")
			git(t, wt, "add", "new")
		}},
		{"untracked", func(t *testing.T, wt string) { write(t, filepath.Join(wt, "junk"), "x\n") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := newRepo(t, "proj")
			wt, err := AddWorktree(t.Context(), repo, "w", "")
			if err != nil {
				t.Fatal(err)
			}
			tt.dirty(t, wt)
			if err := RemoveWorktree(t.Context(), wt, false); !errors.Is(err, ErrDirty) {
				t.Fatalf("err = %v, want ErrDirty", err)
			}
			if _, err := os.Stat(wt); err != nil {
				t.Fatalf("dirty worktree removed: %v", err)
			}
			if err := RemoveWorktree(t.Context(), wt, true); err != nil {
				t.Fatalf("force: %v", err)
			}
			if _, err := os.Stat(wt); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("worktree still on disk: %v", err)
			}
		})
	}
}

func TestRemoveWorktreeRefuses(t *testing.T) {
	repo := newRepo(t, "proj")
	wt, err := AddWorktree(t.Context(), repo, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(wt, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       error
	}{
		{"main work tree", repo, ErrNotWorktree},
		{"subdirectory", sub, ErrNotWorktree},
		{"not a repo", t.TempDir(), ErrNotRepo},
		{"missing", filepath.Join(repo, "nope"), ErrNotRepo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := RemoveWorktree(t.Context(), tt.path, true); !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(repo, "README")); err != nil {
				t.Fatal("main work tree damaged")
			}
		})
	}
}

func TestSanitize(t *testing.T) {
	tests := map[string]string{
		"feat/login": "feat-login",
		"a_b.c-d":    "a_b.c-d",
		"ü/ï":        "---",
		"x+y":        "x-y",
	}
	for in, want := range tests {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}
