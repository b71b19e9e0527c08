package crashtest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// escapingCLI writes a claude wrapper that first starts a tool in a session
// of its own (setsid, as Claude Code runs its Bash tool), then runs the
// fake CLI; with dir/hang present it never gets past its start-up instead
// (it never answers initialize, and ignores its stdin closing).
func escapingCLI(t *testing.T, dir string) string {
	t.Helper()
	script := `#!/bin/sh
setsid sleep 1000 </dev/null >/dev/null 2>&1 &
[ -e @DIR@/hang ] && exec sleep 1000
exec @CLI@ "$@"
`
	script = strings.NewReplacer("@DIR@", dir, "@CLI@", fakeCLI).Replace(script)
	path := filepath.Join(dir, "claude")
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// escapingTerminal is a terminal whose shell starts a setsid child.
const escapingTerminal = `{"kind":"terminal","command":["/bin/sh","-c","setsid sleep 1000 & wait"]}`

// newSession creates a session with an sdk worker and returns their ids.
func newSession(t *testing.T, s *server) ids {
	var sess struct {
		ID      string
		Workers []struct{ ID string }
	}
	s.mustJSON("POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"sdk"}`, 201, &sess)
	return ids{session: sess.ID, sdk: sess.Workers[0].ID}
}

// addTerminal adds an escaping terminal to the session.
func addTerminal(s *server, w *ids) {
	var term struct{ ID string }
	s.mustJSON("POST", "/api/sessions/"+w.session+"/workers", escapingTerminal, 201, &term)
	w.term = term.ID
}

// turn sends a message and waits for its result: the CLI then runs, and
// so does its tool.
func turn(t *testing.T, s *server, w ids) {
	t.Helper()
	rec := recordSDK(s.dial("/ws" + w.sdkPath()))
	defer rec.close()
	s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"hello"}`, 202, nil)
	if !rec.waitFor(20*time.Second, func(_ []message, results int, _ []string) bool { return results > 0 }) {
		t.Fatalf("no reply; stderr:\n%s", s.stderr)
	}
}

// waitSleeps waits until the server has at least n sleep descendants and
// returns all its descendants.
func waitSleeps(t *testing.T, s *server, n int) []procInfo {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ps := descendants(s.cmd.Process.Pid)
		found := 0
		for _, p := range ps {
			if p.comm == "sleep" {
				found++
			}
		}
		if found >= n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d sleeps started; stderr:\n%s", found, n, s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCrashEndsEscapedDescendants: after a SIGKILL of the server, the next
// start ends the setsid tool of the CLI and the setsid child of a
// terminal's shell, which are in no recorded process group or session.
func TestCrashEndsEscapedDescendants(t *testing.T) {
	dir, data := t.TempDir(), t.TempDir()
	cli := escapingCLI(t, dir)
	s := startServerWith(t, data, cli)
	w := newSession(t, s)
	addTerminal(s, &w)
	turn(t, s, w)
	ps := waitSleeps(t, s, 2)
	s.kill()
	s = startServerWith(t, data, cli)
	checkEnded(t, "after the next start", ps)
	s.stop()
}

// checkEnded fails when one of ps still runs (after a short wait for it
// to go), killing the survivors.
func checkEnded(t *testing.T, when string, ps []procInfo) {
	t.Helper()
	if left := survivors(ps); len(left) > 0 {
		killAll(left)
		var names []string
		for _, p := range left {
			names = append(names, p.comm+"/"+itoa(p.pid))
		}
		t.Fatalf("still running %s: %s", when, strings.Join(names, ", "))
	}
}

// TestDeleteEndsEscapedDescendants: deleting a worker, or its session, ends
// the setsid children too.
func TestDeleteEndsEscapedDescendants(t *testing.T) {
	s := startServerWith(t, t.TempDir(), escapingCLI(t, t.TempDir()))
	w := newSession(t, s)
	addTerminal(s, &w)
	ps := waitSleeps(t, s, 1)
	s.mustJSON("DELETE", "/api"+w.termPath(), "", 204, nil)
	checkEnded(t, "after DELETE of the terminal", ps)
	turn(t, s, w)
	ps = waitSleeps(t, s, 1)
	s.mustJSON("DELETE", "/api/sessions/"+w.session, "", 204, nil)
	checkEnded(t, "after DELETE of the session", ps)
	s.stop()
}

// TestCrashDuringCLIStartup: a CLI (with the tool it started) that the
// server was still starting when it was killed is ended by the next start.
func TestCrashDuringCLIStartup(t *testing.T) {
	dir, data := t.TempDir(), t.TempDir()
	cli := escapingCLI(t, dir)
	flag(t, dir, "hang", true)
	s := startServerWith(t, data, cli)
	w := newSession(t, s)
	// The answer never comes: the CLI never finishes its start-up, and the
	// server is killed meanwhile.
	req, err := http.NewRequest("POST", s.base+"/api"+w.sdkPath()+"/input", strings.NewReader(`{"content":"hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	posted := make(chan struct{})
	go func() {
		defer close(posted)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	ps := waitSleeps(t, s, 2) // the hanging CLI and its tool
	s.kill()
	<-posted
	s = startServerWith(t, data, cli)
	checkEnded(t, "after the next start", ps)
	s.stop()
}
