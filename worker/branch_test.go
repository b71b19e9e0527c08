package worker

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitT runs a setup git command in dir, failing the test on error.
func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	full := append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)
	cmd := exec.Command("git", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestHeadBranch(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(repo, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "add", "README")
	gitT(t, repo, "commit", "-q", "-m", "init")
	wt := filepath.Join(filepath.Dir(repo), "proj-feat")
	gitT(t, repo, "worktree", "add", "-q", "-b", "feat/x", wt)
	detached := filepath.Join(filepath.Dir(repo), "proj-detached")
	gitT(t, repo, "worktree", "add", "-q", "--detach", detached)

	check := func(name, dir string, want *string) {
		t.Helper()
		got := headBranch(dir)
		switch {
		case want == nil && got != nil:
			t.Errorf("%s: headBranch(%q) = %q, want nil", name, dir, *got)
		case want != nil && (got == nil || *got != *want):
			t.Errorf("%s: headBranch(%q) = %v, want %q", name, dir, got, *want)
		}
	}
	main, feat, other := "main", "feat/x", "other"
	check("repo root", repo, &main)
	check("subdirectory", filepath.Join(repo, "sub", "deeper"), &main)
	check("linked worktree", wt, &feat)
	check("detached HEAD", detached, nil)
	check("not a repo", t.TempDir(), nil)
	check("missing dir", filepath.Join(t.TempDir(), "nope"), nil)
	check("empty", "", nil)

	// A checkout made outside agentdesk shows at the next read.
	gitT(t, repo, "checkout", "-q", "-b", "other")
	check("after checkout", repo, &other)
}

func TestSessionSnapshotCarriesBranch(t *testing.T) {
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "trunk")
	st := &sessionState{s: Session{ID: "s", Cwd: repo}}
	snap := st.snapshot()
	if snap.Branch == nil || *snap.Branch != "trunk" {
		t.Fatalf("snapshot branch = %v, want trunk", snap.Branch)
	}
	if st.s.Branch != nil {
		t.Fatal("the stored session got a branch: it must only be in snapshots")
	}
}
