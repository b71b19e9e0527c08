package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// gitOpsRepo is gitRepo with an identity, a.txt edited and b.txt untracked.
func gitOpsRepo(t *testing.T) string {
	t.Helper()
	repo := gitRepo(t)
	git(t, repo, "config", "user.name", "T")
	git(t, repo, "config", "user.email", "t@example.com")
	write(t, filepath.Join(repo, "a.txt"), "one\ntwo\n")
	write(t, filepath.Join(repo, "b.txt"), "untracked\n")
	return repo
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func statusOf(t *testing.T, a answer) gitdiff.Stage {
	t.Helper()
	if a.status != 200 {
		t.Fatalf("want 200 and the status: %d %s", a.status, a.body)
	}
	var st gitdiff.Stage
	a.json(t, &st)
	return st
}

func TestGitFromTheUI(t *testing.T) {
	e := newEnv(t, gitKinds())
	repo := gitOpsRepo(t)
	s := e.createSession(repo)
	base := "/api/sessions/" + s.ID + "/git/"
	st := statusOf(t, e.do("GET", base+"status", nil))
	if len(st.Unstaged) != 2 || len(st.Staged) != 0 || st.Branch == nil || *st.Branch != "main" || st.Remote != nil {
		t.Fatalf("status: %+v", st)
	}
	a := st.Unstaged[0]
	// A hunk the person saw, then the file changes under it: 409, nothing staged.
	write(t, filepath.Join(repo, "a.txt"), "one\nTWO\n")
	if got := e.do("POST", base+"stage", map[string]string{"path": "a.txt", "hunk": a.HunkIDs[0]}); got.status != 409 || got.errCode(t) != "conflict" {
		t.Fatalf("stale hunk: %d %s", got.status, got.body)
	}
	if got := git(t, repo, "diff", "--cached"); got != "" {
		t.Fatalf("index changed: %s", got)
	}
	st = statusOf(t, e.do("GET", base+"status", nil))
	st = statusOf(t, e.do("POST", base+"stage", map[string]string{"path": "a.txt", "hunk": st.Unstaged[0].HunkIDs[0]}))
	if len(st.Staged) != 1 || st.Staged[0].Path != "a.txt" || !strings.Contains(git(t, repo, "diff", "--cached"), "+TWO") {
		t.Fatalf("after staging the hunk: %+v", st)
	}
	// Untracked: discard needs the second confirmation.
	b := st.Unstaged[0]
	got := e.do("POST", base+"discard", map[string]string{"path": "b.txt", "hash": b.Hash})
	if got.status != 400 || got.errCode(t) != "invalid_field" || !strings.Contains(string(got.body), "deleteUntracked") {
		t.Fatalf("discard untracked without confirmation: %d %s", got.status, got.body)
	}
	if _, err := os.Stat(filepath.Join(repo, "b.txt")); err != nil {
		t.Fatal("the refused discard deleted the file")
	}
	for _, p := range []string{"../a.txt", "/etc/passwd", "x/../../a.txt"} {
		if got := e.do("POST", base+"stage", map[string]string{"path": p}); got.status != 400 || got.errCode(t) != "invalid_field" {
			t.Fatalf("path %q: %d %s", p, got.status, got.body)
		}
	}
	st = statusOf(t, e.do("POST", base+"discard", map[string]any{"path": "b.txt", "hash": b.Hash, "deleteUntracked": true}))
	if len(st.Unstaged) != 0 {
		t.Fatalf("after discarding b.txt: %+v", st.Unstaged)
	}
	// Commit: an empty message is ours to refuse; git's refusals come with its message.
	if got := e.do("POST", base+"commit", map[string]string{"message": "  "}); got.status != 400 || got.errCode(t) != "invalid_field" {
		t.Fatalf("empty message: %d %s", got.status, got.body)
	}
	st = statusOf(t, e.do("POST", base+"commit", map[string]string{"message": "Shout two"}))
	if st.Head == nil || *st.Head != git(t, repo, "rev-parse", "HEAD") || len(st.Staged) != 0 {
		t.Fatalf("after commit: %+v", st)
	}
	got = e.do("POST", base+"commit", map[string]string{"message": "again"})
	if got.status != 409 || got.errCode(t) != "git_failed" || !strings.Contains(string(got.body), "nothing to commit") {
		t.Fatalf("nothing staged: %d %s", got.status, got.body)
	}
	// Push: refused without a remote, then to a local bare one.
	if got := e.do("POST", base+"push", nil); got.status != 409 || got.errCode(t) != "conflict" {
		t.Fatalf("push without a remote: %d %s", got.status, got.body)
	}
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, "", "init", "-q", "--bare", bare)
	git(t, repo, "remote", "add", "origin", bare)
	st = statusOf(t, e.do("POST", base+"push", map[string]any{}))
	if st.Upstream == nil || *st.Upstream != "origin/main" || git(t, bare, "rev-parse", "main") != *st.Head {
		t.Fatalf("after push: %+v", st)
	}
}

func TestGitOpsUnknownSession(t *testing.T) {
	e := newEnv(t, gitKinds())
	if got := e.do("GET", "/api/sessions/nope/git/status", nil); got.status != 404 || got.errCode(t) != "not_found" {
		t.Fatalf("%d %s", got.status, got.body)
	}
	dir := t.TempDir()
	s := e.createSession(dir)
	if got := e.do("GET", "/api/sessions/"+s.ID+"/git/status", nil); got.status != 409 || got.errCode(t) != "conflict" {
		t.Fatalf("not a repo: %d %s", got.status, got.body)
	}
}
