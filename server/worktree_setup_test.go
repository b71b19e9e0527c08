package server

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestArchiveKeepsHistory: archiving refuses a dirty worktree, then
// removes a clean one, stops the workers and keeps the session and a
// terminal's output readable, across a restart.
func TestArchiveKeepsHistory(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	s := e.worktreeSession(repo, "feat")
	a := e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]any{"kind": "terminal", "command": []string{"sh", "-c", "echo history-$((40+2)); exec sleep 600"}})
	if a.status != 201 {
		t.Fatalf("terminal: %d %s", a.status, a.body)
	}
	var term worker.Info
	a.json(t, &term)
	wsPath := "/ws/sessions/" + s.ID + "/workers/" + term.ID
	tc := e.openTerm(wsPath, 0)
	tc.waitFor("history-42")
	tc.c.CloseNow()

	writeFile(t, filepath.Join(s.Cwd, "wip.txt"), "x")
	if a := e.do("POST", "/api/sessions/"+s.ID+"/archive", nil); a.status != 409 || a.errCode(t) != "conflict" {
		t.Fatalf("archive of a dirty worktree: %d %s", a.status, a.body)
	}
	if got, _ := e.mgr.Session(s.ID); got.Archived || gone(s.Cwd) || got.Workers[1].Status == worker.StatusStopped {
		t.Fatalf("a refused archive changed something: %+v", got)
	}
	if err := os.Remove(filepath.Join(s.Cwd, "wip.txt")); err != nil {
		t.Fatal(err)
	}
	a = e.do("POST", "/api/sessions/"+s.ID+"/archive", nil)
	var got worker.Session
	a.json(t, &got)
	if a.status != 200 || !got.Archived || !gone(s.Cwd) {
		t.Fatalf("archive: %d %s", a.status, a.body)
	}
	for _, w := range got.Workers {
		if w.Status != worker.StatusStopped {
			t.Fatalf("worker %s of an archived session: %s", w.Name, w.Status)
		}
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]any{"kind": "terminal"}); a.status != 409 {
		t.Fatalf("new worker in an archived session: %d %s", a.status, a.body)
	}
	e.restart()
	got, err := e.mgr.Session(s.ID)
	if err != nil || !got.Archived || len(got.Workers) != 2 {
		t.Fatalf("after restart: %+v, %v", got, err)
	}
	tc = e.openTerm(wsPath, 0)
	defer tc.c.CloseNow()
	tc.waitFor("history-42")
}

// TestSetupCommandAndCopiedFiles: a new worktree gets the repository's
// untracked files that match the settings (not tracked ones, not
// symlinks), and the setup command runs in a terminal worker of the new
// session, its output there.
func TestSetupCommandAndCopiedFiles(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	commitIn(t, repo, ".envrc", "committed\n")
	writeFile(t, filepath.Join(repo, ".envrc"), "uncommitted edit\n")
	writeFile(t, filepath.Join(repo, ".env"), "SECRET=1\n")
	writeFile(t, filepath.Join(repo, "config", "app.local"), "local\n")
	outside := filepath.Join(t.TempDir(), "outside")
	writeFile(t, outside, "not ours\n")
	if err := os.Symlink(outside, filepath.Join(repo, ".env.link")); err != nil {
		t.Fatal(err)
	}
	q := "/api/repos/settings?root=" + repo
	body := map[string]any{"setupCommand": "echo setup-$((6*7)) && touch setup-ran", "copyFiles": []string{".env*", "config/*.local"}}
	if a := e.do("PUT", q, body); a.status != 200 {
		t.Fatalf("put settings: %d %s", a.status, a.body)
	}
	s := e.worktreeSession(repo, "feat")
	for name, want := range map[string]string{".env": "SECRET=1\n", "config/app.local": "local\n", ".envrc": "committed\n"} {
		if b, err := os.ReadFile(filepath.Join(s.Cwd, name)); err != nil || string(b) != want {
			t.Fatalf("%s in the worktree: %q, %v; want %q", name, b, err, want)
		}
	}
	if !gone(filepath.Join(s.Cwd, ".env.link")) {
		t.Fatal("a symlink was copied")
	}
	i := slices.IndexFunc(s.Workers, func(w worker.Info) bool { return w.Kind == worker.KindTerminal })
	if i < 0 || s.Workers[i].Name != "setup" {
		t.Fatalf("no setup terminal: %+v", s.Workers)
	}
	tc := e.openTerm("/ws/sessions/"+s.ID+"/workers/"+s.Workers[i].ID, 0)
	defer tc.c.CloseNow()
	tc.waitFor("setup-42")
	tc.read(func(v map[string]any) bool { return v != nil && v["type"] == "exit" })
	if gone(filepath.Join(s.Cwd, "setup-ran")) {
		t.Fatal("the setup command did not run in the worktree")
	}
}

func TestRepoSettingsValidation(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	q := "/api/repos/settings?root=" + repo
	var rs worker.RepoSettings
	a := e.do("GET", q, nil)
	a.json(t, &rs)
	if a.status != 200 || rs.Root != repo || rs.SetupCommand != "" || !slices.Equal(rs.CopyFiles, []string{".env*"}) {
		t.Fatalf("defaults: %d %s", a.status, a.body)
	}
	if a := e.do("PUT", q, map[string]any{"setupCommand": "make", "copyFiles": []string{}}); a.status != 200 {
		t.Fatalf("put: %d %s", a.status, a.body)
	}
	for _, bad := range []map[string]any{
		{"copyFiles": []string{"../x"}},
		{"copyFiles": []string{"/etc/passwd"}},
		{"copyFiles": []string{".git/config"}},
		{"copyFiles": []string{"[x"}},
		{"setupCommand": "a\x00b"},
		{"unknown": 1},
	} {
		if a := e.do("PUT", q, bad); a.status != 400 {
			t.Fatalf("%v: %d %s", bad, a.status, a.body)
		}
	}
	e.restart()
	a = e.do("GET", q, nil)
	a.json(t, &rs)
	if rs.SetupCommand != "make" || len(rs.CopyFiles) != 0 {
		t.Fatalf("after refused puts and a restart: %s", a.body)
	}
	for _, root := range []string{"", "relative", t.TempDir()} {
		if a := e.do("GET", "/api/repos/settings?root="+root, nil); a.status != 400 || a.errCode(t) != "invalid_field" {
			t.Fatalf("root %q: %d %s", root, a.status, a.body)
		}
	}
}

// TestPushOpensPRLink pushes to a local bare repository that stands in
// for GitHub (pushInsteadOf), and answers the compare link.
func TestPushOpensPRLink(t *testing.T) {
	e := newEnv(t, lifecycleKinds())
	repo := lifecycleRepo(t)
	bare := filepath.Join(t.TempDir(), "remote.git")
	git(t, "", "init", "-q", "--bare", bare)
	git(t, repo, "remote", "add", "origin", "git@github.com:acme/app.git")
	git(t, repo, "config", "url."+bare+".pushInsteadOf", "git@github.com:acme/app.git")
	s := e.worktreeSession(repo, "feat/x")
	commitIn(t, s.Cwd, "b.txt", "b\n")
	a := e.do("POST", "/api/sessions/"+s.ID+"/worktree/push", nil)
	var v struct {
		Remote, Branch, Base string
		URL                  *string
	}
	a.json(t, &v)
	want := "https://github.com/acme/app/compare/main...feat/x?expand=1"
	if a.status != 200 || v.Remote != "origin" || v.URL == nil || *v.URL != want {
		t.Fatalf("push: %d %s", a.status, a.body)
	}
	if got := git(t, bare, "rev-parse", "refs/heads/feat/x"); got != git(t, s.Cwd, "rev-parse", "HEAD") {
		t.Fatalf("remote has %s", got)
	}
}
