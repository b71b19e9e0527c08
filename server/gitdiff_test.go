package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/coder/websocket"
)

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, "", "init", "-q", "-b", "main", dir)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "a.txt")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func gitKinds() map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{worker.KindGitDiff: gitdiff.New}
}

func TestGitDiffWorker(t *testing.T) {
	e := newEnv(t, gitKinds())
	repo := gitRepo(t)
	s := e.createSession(repo)
	if len(s.Workers) != 1 || s.Workers[0].Kind != worker.KindGitDiff {
		t.Fatalf("a session in a work tree has no git-diff worker: %+v", s.Workers)
	}
	w := s.Workers[0]
	c := e.dial("/ws/sessions/" + s.ID + "/workers/" + w.ID)
	defer c.CloseNow()
	if d := readJSON(t, c, "diff"); len(d["files"].([]any)) != 0 {
		t.Fatalf("clean tree: %v", d)
	}
	if err := os.WriteFile(filepath.Join(repo, "new.txt"), []byte("x\ny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		d := readJSON(t, c, "diff")
		if files := d["files"].([]any); len(files) == 1 {
			f := files[0].(map[string]any)
			if f["path"] != "new.txt" || f["status"] != "untracked" || f["additions"] != 2.0 {
				t.Fatalf("untracked file: %v", f)
			}
			break
		}
	}
	_ = c.Write(context.Background(), websocket.MessageText, []byte(`{"type":"set-base","base":"--upload-pack=touch /tmp/pwned"}`))
	if got := readJSON(t, c, "error"); got["code"] != "invalid_base" {
		t.Fatalf("hostile base: %v", got)
	}
	var d gitdiff.Diff
	a := e.do("GET", "/api/sessions/"+s.ID+"/workers/"+w.ID+"/diff", nil)
	a.json(t, &d)
	if a.status != 200 || len(d.Files) != 1 || len(d.Base) != 40 {
		t.Fatalf("REST diff: %d %s", a.status, a.body)
	}
	if a := e.do("GET", "/api/sessions/"+s.ID+"/workers/"+w.ID+"/diff?path=../../etc/passwd", nil); a.status != 400 {
		t.Fatalf("hostile path: %d %s", a.status, a.body)
	}
	// A base that does not resolve is refused at creation and changes nothing.
	a = e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]string{"kind": "git-diff", "base": "no-such-ref"})
	if a.status != 400 {
		t.Fatalf("bad base: %d %s", a.status, a.body)
	}
	if got, _ := e.mgr.Session(s.ID); len(got.Workers) != 1 {
		t.Fatalf("refused worker was kept: %+v", got.Workers)
	}
}

// TestRefusedWorkerNotBroadcast: a git-diff base that does not resolve is
// refused before the worker is stored, so tabs never see it appear and
// vanish: the next lifecycle event is the next worker that was made.
func TestRefusedWorkerNotBroadcast(t *testing.T) {
	e := newEnv(t, gitKinds())
	s := e.createSession(gitRepo(t))
	c := e.dial("/ws/app")
	defer c.CloseNow()
	readJSON(t, c, "sessions-sync")
	readJSON(t, c, "attention") // the inbox's list follows the sync
	path := "/api/sessions/" + s.ID + "/workers"
	if a := e.do("POST", path, map[string]string{"kind": "git-diff", "base": "no-such-ref"}); a.status != 400 || a.errCode(t) != "invalid_base" {
		t.Fatalf("bad base: %d %s", a.status, a.body)
	}
	a := e.do("POST", path, map[string]string{"kind": "git-diff", "base": "main"})
	var w worker.Info
	a.json(t, &w)
	if a.status != 201 {
		t.Fatalf("good base: %d %s", a.status, a.body)
	}
	ev := readJSON(t, c, "")
	got, _ := ev["worker"].(map[string]any)
	if ev["type"] != "worker-created" || got["id"] != w.ID {
		t.Fatalf("first event after a refused create: %v, want worker-created of %s", ev, w.ID)
	}
}

func TestWorktreeSession(t *testing.T) {
	e := newEnv(t, gitKinds())
	repo := gitRepo(t)
	a := e.do("POST", "/api/sessions", map[string]any{"repo": repo, "branch": "feature/x", "worktree": true, "agent": "none"})
	if a.status != 201 {
		t.Fatalf("worktree session: %d %s", a.status, a.body)
	}
	var s worker.Session
	a.json(t, &s)
	if s.Worktree == nil || s.Cwd != s.Worktree.Path || !strings.HasPrefix(filepath.Base(s.Cwd), "repo-feature") {
		t.Fatalf("session: %s", a.body)
	}
	if got := git(t, s.Cwd, "branch", "--show-current"); got != "feature/x" {
		t.Fatalf("worktree branch %q", got)
	}
	for _, bad := range []map[string]any{
		{"repo": repo, "branch": "feature/x", "worktree": true},                // branch exists
		{"repo": filepath.Join(repo, "nope"), "branch": "b", "worktree": true}, // no repo
		{"repo": repo, "branch": "-bad", "worktree": true},
		{"repo": "relative", "branch": "b", "worktree": true},
	} {
		if a := e.do("POST", "/api/sessions", bad); a.status != 400 || a.errCode(t) != "invalid_field" {
			t.Fatalf("%v: %d %s", bad, a.status, a.body)
		}
	}
	if err := os.WriteFile(filepath.Join(s.Cwd, "dirty.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := e.do("DELETE", "/api/sessions/"+s.ID+"?removeWorktree=true", nil); a.status != 409 {
		t.Fatalf("dirty worktree removal: %d %s", a.status, a.body)
	}
	if _, err := e.mgr.Session(s.ID); err != nil {
		t.Fatal("refused delete removed the session")
	}
	if a := e.do("DELETE", "/api/sessions/"+s.ID+"?removeWorktree=true&force=true", nil); a.status != 204 {
		t.Fatalf("forced removal: %d %s", a.status, a.body)
	}
	if _, err := os.Stat(s.Cwd); !os.IsNotExist(err) {
		t.Fatalf("worktree still on disk: %v", err)
	}
}
