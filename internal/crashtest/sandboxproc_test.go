package crashtest

import (
	"os"
	"strings"
	"testing"
	"time"
)

// boxedTerminal runs two sleeps in the box: one that left the shell's
// session (setsid), one that is the terminal's program.
const boxedTerminal = `{"kind":"terminal","command":["/bin/sh","-c","setsid sleep 4300 </dev/null >/dev/null 2>&1 & exec sleep 4301"]}`

// boxedTool is a Bash call of the CLI leaving a setsid sleep behind.
const boxedTool = `{"content":"bash: setsid sleep 4302 </dev/null >/dev/null 2>&1 &"}`

// waitBoxed waits until every one of the sleeps (by their argument) runs
// below the server, and returns them.
func waitBoxed(t *testing.T, s *server, args ...string) []procInfo {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		var found []procInfo
		for _, p := range descendants(s.cmd.Process.Pid) {
			b, _ := os.ReadFile("/proc/" + itoa(p.pid) + "/cmdline")
			for _, a := range args {
				if string(b) == "sleep\x00"+a+"\x00" {
					found = append(found, p)
				}
			}
		}
		if len(found) >= len(args) {
			return found
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the sleeps %s run; stderr:\n%s", len(found), strings.Join(args, ", "), s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// boxedWorkers starts the terminal and the CLI's tool in a sandboxed
// session, and returns the session with the terminal.
func boxedWorkers(t *testing.T, w *boxWorld, s *server) ids {
	t.Helper()
	box := w.boxSession(t, s)
	var term struct{ ID string }
	s.mustJSON("POST", "/api/sessions/"+box.session+"/workers", boxedTerminal, 201, &term)
	box.term = term.ID
	rec := recordSDK(s.dial("/ws" + box.sdkPath()))
	defer rec.close()
	s.mustJSON("POST", "/api"+box.sdkPath()+"/input", boxedTool, 202, nil)
	if !rec.waitFor(guard, func(_ []message, results int, _ []string) bool { return results > 0 }) {
		t.Fatalf("the turn never ended; stderr:\n%s", s.stderr)
	}
	return box
}

// TestSandboxStopEnds: a restart (the terminal's Stop, then a new shell)
// and a DELETE of the worker end what the box's processes started; a
// DELETE of the session ends what the CLI's tool left.
func TestSandboxStopEnds(t *testing.T) {
	requireSandbox(t)
	w := newBoxWorld(t)
	s := w.start(t)
	box := boxedWorkers(t, w, s)
	ps := waitBoxed(t, s, "4300", "4301")
	s.mustJSON("POST", "/api"+box.termPath()+"/restart", "", 200, nil)
	checkEnded(t, "after the terminal's restart", ps)
	ps = waitBoxed(t, s, "4300", "4301")
	s.mustJSON("DELETE", "/api"+box.termPath(), "", 204, nil)
	checkEnded(t, "after DELETE of the terminal", ps)
	ps = waitBoxed(t, s, "4302")
	s.mustJSON("DELETE", "/api/sessions/"+box.session, "", 204, nil)
	checkEnded(t, "after DELETE of the session", ps)
	s.stop()
}

// TestSandboxCrashEnds: a SIGKILL of agentdesk ends every process of its
// boxes at once (bwrap --die-with-parent), before any next start; the
// next start finds nothing to end and runs the session again.
func TestSandboxCrashEnds(t *testing.T) {
	requireSandbox(t)
	w := newBoxWorld(t)
	s := w.start(t)
	box := boxedWorkers(t, w, s)
	ps := waitBoxed(t, s, "4300", "4301", "4302")
	for _, p := range descendants(s.cmd.Process.Pid) {
		ps = append(ps, p) // bwrap, the CLI, socat: the whole family
	}
	s.kill()
	checkEnded(t, "after a SIGKILL of agentdesk", ps)
	s = w.start(t)
	var sess struct{ Sandbox string }
	s.mustJSON("GET", "/api/sessions/"+box.session, "", 200, &sess)
	if sess.Sandbox != "workspace" {
		t.Errorf("after the restart the session's sandbox is %q", sess.Sandbox)
	}
	s.mustJSON("POST", "/api"+box.termPath()+"/restart", "", 200, nil)
	waitBoxed(t, s, "4300", "4301")
	s.stop()
}
