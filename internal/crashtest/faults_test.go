package crashtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// faultyCLI writes a claude wrapper whose behaviour the test switches with
// flag files in dir: exit (exits at start), hold (a turn that waits on a
// permission request), garbage (non-JSON lines first), hang (ignores
// SIGTERM and stdin EOF). Every start appends its arguments to dir/args.
func faultyCLI(t *testing.T, dir string) string {
	t.Helper()
	fixtures, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
echo "$@" >> @DIR@/args
[ -e @DIR@/exit ] && export FAKECLAUDE_EXIT_AT_START=3
[ -e @DIR@/hold ] && export FAKECLAUDE_SCRIPT=@FIX@/f_permission_stdio.transcript.jsonl
[ -e @DIR@/hang ] && export FAKECLAUDE_IGNORE_TERM=1 FAKECLAUDE_IGNORE_EOF=1
[ -e @DIR@/garbage ] && printf 'garbage line\n{"type":\n\001\377\n[1,2]\n{"type":"nonsense","uuid":7}\n'
exec @CLI@ "$@"
`
	script = strings.NewReplacer("@DIR@", dir, "@FIX@", fixtures, "@CLI@", fakeCLI).Replace(script)
	path := filepath.Join(dir, "claude")
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func flag(t *testing.T, dir, name string, on bool) {
	t.Helper()
	p := filepath.Join(dir, name)
	if on {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

// TestChildFaults breaks the CLI in the ways a real one can break and
// checks the worker reports it and recovers on the next message.
func TestChildFaults(t *testing.T) {
	dir := t.TempDir()
	cli := faultyCLI(t, dir)
	s := startServerWith(t, t.TempDir(), cli)
	w := createWorkers(t, s)
	s.mustJSON("DELETE", "/api"+w.termPath(), "", 204, nil)
	rec := recordSDK(s.dial("/ws" + w.sdkPath()))
	defer rec.close()
	turn := func(what string) {
		t.Helper()
		_, before, _ := rec.snapshot()
		s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"`+what+`"}`, 202, nil)
		if !rec.waitFor(guard, func(_ []message, results int, _ []string) bool { return results > before }) {
			_, _, errs := rec.snapshot()
			t.Fatalf("%s: no reply; errors %v; stderr:\n%s", what, errs, s.stderr)
		}
	}
	status := func() string {
		var info struct{ Status string }
		s.mustJSON("GET", "/api"+w.sdkPath(), "", 200, &info)
		return info.Status
	}

	// The CLI exits at start: an error frame with its stderr, status
	// error; the next message tries again.
	// (Through the socket, as the UI sends it: REST input answers 500
	// "internal" here, see the report.)
	flag(t, dir, "exit", true)
	if err := rec.conn.Write(context.Background(), websocket.MessageText, []byte(`{"type":"user-message","content":"one"}`)); err != nil {
		t.Fatal(err)
	}
	if !rec.waitFor(guard, func(_ []message, _ int, errs []string) bool {
		return len(errs) > 0 && strings.HasPrefix(errs[0], "claude_exited") && strings.Contains(errs[0], "exiting at start with code 3")
	}) {
		_, _, errs := rec.snapshot()
		t.Fatalf("exit at start: errors %v", errs)
	}
	if st := status(); st != "error" {
		t.Fatalf("status after a failed start: %s", st)
	}
	flag(t, dir, "exit", false)
	turn("two")
	if st := status(); st != "running" {
		t.Fatalf("status after a good start: %s", st)
	}

	// The CLI dies mid-turn: an exit frame, then the next message resumes
	// the conversation.
	restartCLI(t, s, w, rec, dir, "hold")
	exits := rec.seen("exit")
	s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"three"}`, 202, nil)
	if !rec.waitFor(guard, func([]message, int, []string) bool { return rec.saw("permission-request") }) {
		t.Fatal("the held turn never asked for permission")
	}
	cli1 := cliProcs(s)
	if len(cli1) != 1 {
		t.Fatalf("CLI processes: %+v", cli1)
	}
	_ = syscall.Kill(cli1[0].pid, syscall.SIGKILL)
	if !rec.waitFor(guard, func([]message, int, []string) bool { return rec.seen("exit") > exits }) {
		t.Fatal("no exit frame after the CLI died")
	}
	flag(t, dir, "hold", false)
	turn("four")
	if args := lastLine(t, filepath.Join(dir, "args")); !strings.Contains(args, "--resume") {
		t.Fatalf("the CLI after a crash was started with %q, not --resume", args)
	}

	// Garbage on stdout: lines skipped or reported, the turn still works.
	restartCLI(t, s, w, rec, dir, "garbage")
	turn("five")
	s.mustJSON("GET", "/api/health", "", 200, nil)

	// A CLI that ignores SIGTERM and stdin EOF: deleting the worker still
	// ends it (SIGKILL after the grace period), and nothing is left.
	restartCLI(t, s, w, rec, dir, "hang")
	turn("six")
	hung := cliProcs(s)
	start := time.Now()
	s.mustJSON("DELETE", "/api"+w.sdkPath(), "", 204, nil)
	if left := survivors(hung); len(left) > 0 {
		killAll(left)
		t.Fatalf("a CLI that ignores SIGTERM outlived its worker: %+v", left)
	}
	t.Logf("a CLI ignoring SIGTERM ended %v after the delete", time.Since(start).Round(time.Millisecond))
	if left := descendants(s.cmd.Process.Pid); len(left) > 0 {
		killAll(left)
		t.Fatalf("processes left under the server: %+v", left)
	}
	s.stop()
}

// restartCLI makes the next turn run a new CLI with the given flag set: it
// kills the current one and waits for the worker to notice.
func restartCLI(t *testing.T, s *server, w ids, rec *sdkRecorder, dir, name string) {
	t.Helper()
	flag(t, dir, name, true)
	exits := rec.seen("exit")
	procs := cliProcs(s)
	for _, p := range procs {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
	if left := survivors(procs); len(left) > 0 {
		t.Fatalf("killed CLIs still run: %+v", left)
	}
	// The worker reports the exit on its socket: only then is the next
	// message sure to start a new CLI rather than meet the dying one.
	if len(procs) > 0 && !rec.waitFor(guard, func([]message, int, []string) bool { return rec.seen("exit") > exits }) {
		t.Fatalf("no exit frame after the CLI was killed; stderr:\n%s", s.stderr)
	}
	s.mustJSON("GET", "/api"+w.sdkPath(), "", 200, nil)
}

// cliProcs lists the fake CLIs running under the server.
func cliProcs(s *server) []procInfo {
	var out []procInfo
	for _, p := range descendants(s.cmd.Process.Pid) {
		if p.comm == "fakeclaude" {
			out = append(out, p)
		}
	}
	return out
}

func lastLine(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}
