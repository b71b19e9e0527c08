package crashtest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cleanEnvCLI writes a claude wrapper that runs the fake CLI with a clean
// environment (exec env -i …, as nix, sandbox and company wrappers do):
// the worker's marker reaches neither the CLI nor anything it starts.
// script runs first in that environment, in the process that then becomes
// the CLI (so what it starts is the CLI's child); knobs are the CLI's only
// variables besides PATH.
func cleanEnvCLI(t *testing.T, dir, script string, knobs ...string) string {
	t.Helper()
	wrapper := "#!/bin/sh\nexec env -i PATH=\"$PATH\" " + strings.Join(knobs, " ") +
		" /bin/sh -c '" + script + "\nexec \"$0\" \"$@\"' " + fakeCLI + " \"$@\"\n"
	path := filepath.Join(dir, "claude")
	if err := os.WriteFile(path, []byte(wrapper), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// escapes is the tool an unmarked CLI starts: in a session of its own, as
// Claude Code runs its Bash tool.
const escapes = "setsid sleep 1000 </dev/null >/dev/null 2>&1 &"

// TestCrashEndsUnmarkedCLI (issue 22, item 4): after a SIGKILL of the
// server, the next start ends a CLI that carries no marker (its wrapper
// cleared the environment; it keeps running after its stdin closed, as the
// CLI does while it finishes a turn) and its setsid tool: the CLI is
// identified by pid, start time and boot, the tool by the parent chain.
func TestCrashEndsUnmarkedCLI(t *testing.T) {
	dir, data := t.TempDir(), t.TempDir()
	cli := cleanEnvCLI(t, dir, escapes, "FAKECLAUDE_IGNORE_EOF=1")
	s := startServerWith(t, data, cli)
	w := newSession(t, s)
	turn(t, s, w)
	ps := waitSleeps(t, s, 1) // the CLI and its tool
	s.kill()
	s = startServerWith(t, data, cli)
	checkEnded(t, "after the next start", ps)
	s.stop()
}

// TestDeleteEndsUnmarkedDescendants: deleting the session ends the setsid
// tool of a CLI that carries no marker, although the CLI exits first.
func TestDeleteEndsUnmarkedDescendants(t *testing.T) {
	s := startServerWith(t, t.TempDir(), cleanEnvCLI(t, t.TempDir(), escapes))
	w := newSession(t, s)
	turn(t, s, w)
	ps := waitSleeps(t, s, 1)
	s.mustJSON("DELETE", "/api/sessions/"+w.session, "", 204, nil)
	checkEnded(t, "after DELETE of the session", ps)
	s.stop()
}

// TestStopWedgedUnmarkedCLI (issue 22, item 4): the Stop of a wedged CLI
// (SIGSTOPped: it ignores its interrupt and cannot take SIGTERM) that
// carries no marker ends its tool, which left the CLI's session and
// ignores SIGTERM, and the tool's own child in yet another session.
func TestStopWedgedUnmarkedCLI(t *testing.T) {
	cli := cleanEnvCLI(t, t.TempDir(), ":", "FAKECLAUDE_HANG=1", "FAKECLAUDE_IGNORE_INTERRUPT=1",
		"FAKECLAUDE_TOOL=stubborn", "FAKECLAUDE_TOOL_CHILD=1")
	s := startServerWith(t, t.TempDir(), cli)
	w := newSession(t, s)
	s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"run the tests"}`, 202, nil)
	ps := waitFakes(t, s, 3) // the CLI, its tool and the tool's child
	for _, p := range ps {
		if ppid, _, _, _, _ := stat(p.pid); ppid == s.cmd.Process.Pid {
			if err := syscall.Kill(p.pid, syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.mustJSON("POST", "/api"+w.sdkPath()+"/cancel", "", 202, nil)
	checkEnded(t, "after the Stop", ps)
	s.stop()
}

// waitFakes waits until the server has n fake CLI processes below it (the
// CLI and the tools it started from its own binary) and returns them.
func waitFakes(t *testing.T, s *server, n int) []procInfo {
	t.Helper()
	name := filepath.Base(fakeCLI)
	deadline := time.Now().Add(20 * time.Second)
	for {
		var found []procInfo
		for _, p := range descendants(s.cmd.Process.Pid) {
			if p.comm == name {
				found = append(found, p)
			}
		}
		if len(found) >= n {
			return found
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d fake CLI processes started; stderr:\n%s", len(found), n, s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
