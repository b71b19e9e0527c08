package gitdiff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommit(t *testing.T) {
	r := editedRepo(t)
	if _, err := Commit(t.Context(), r.dir, " \n\t"); !errors.Is(err, ErrEmptyMessage) {
		t.Fatalf("empty message: %v", err)
	}
	_, err := Commit(t.Context(), r.dir, "nothing staged")
	var ge *GitError
	if !errors.As(err, &ge) || !strings.Contains(ge.Output, "no changes added to commit") {
		t.Fatalf("nothing staged: want git's own message, got %v", err)
	}
	before := r.git("rev-parse", "HEAD")
	if err := StageFile(t.Context(), r.dir, "f.txt", ""); err != nil {
		t.Fatal(err)
	}
	sha, err := Commit(t.Context(), r.dir, "Edit f.txt\n\nTwo lines changed.\n")
	if err != nil {
		t.Fatal(err)
	}
	if sha == before || sha != r.git("rev-parse", "HEAD") || r.git("rev-parse", "HEAD~1") != before {
		t.Fatalf("commit %s, HEAD %s", sha, r.git("rev-parse", "HEAD"))
	}
	if msg := r.git("log", "-1", "--format=%B"); msg != "Edit f.txt\n\nTwo lines changed." {
		t.Fatalf("message %q", msg)
	}
	if got := r.porcelain(); got != "" {
		t.Fatalf("after commit: %q", got)
	}
}

func TestCommitShowsHookMessage(t *testing.T) {
	r := editedRepo(t)
	r.write(".git/hooks/pre-commit", "#!/bin/sh\necho 'lint: f.txt is not formatted' >&2\nexit 1\n")
	r.git("add", "f.txt")
	if err := os.Chmod(filepath.Join(r.dir, ".git/hooks/pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Commit(t.Context(), r.dir, "try")
	var ge *GitError
	if !errors.As(err, &ge) || ge.Output != "lint: f.txt is not formatted" {
		t.Fatalf("hook refusal: %v", err)
	}
}

func TestPush(t *testing.T) {
	r := editedRepo(t)
	if err := Push(t.Context(), r.dir); !errors.Is(err, ErrNoRemote) {
		t.Fatalf("no remote: %v", err)
	}
	bare := filepath.Join(t.TempDir(), "remote.git")
	runGit(t, "", "init", "-q", "-b", "main", "--bare", bare)
	r.git("remote", "add", "origin", bare)
	if st := stage(t, r); st.Remote == nil || *st.Remote != "origin" || st.Upstream != nil {
		t.Fatalf("before push: %+v", st)
	}
	if err := Push(t.Context(), r.dir); err != nil {
		t.Fatal(err)
	}
	if got, want := runGit(t, bare, "rev-parse", "refs/heads/main"), r.git("rev-parse", "HEAD"); got != want {
		t.Fatalf("remote main %s, local %s", got, want)
	}
	if st := stage(t, r); st.Upstream == nil || *st.Upstream != "origin/main" {
		t.Fatalf("upstream after push: %+v", st.Upstream)
	}
	// Someone else pushed: ours is rejected, with git's message.
	other := filepath.Join(t.TempDir(), "other")
	runGit(t, "", "clone", "-q", bare, other)
	runGit(t, other, "commit", "-q", "--allow-empty", "-m", "theirs")
	runGit(t, other, "push", "-q")
	r.commit("ours")
	err := Push(t.Context(), r.dir)
	var ge *GitError
	if !errors.As(err, &ge) || !strings.Contains(ge.Output, "rejected") {
		t.Fatalf("non-fast-forward push: %v", err)
	}
}
