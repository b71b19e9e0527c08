package chat

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// cleanEnvCLI writes a --claude wrapper that runs the fake CLI with a
// clean environment (exec env -i …, as nix, sandbox and company wrappers
// do): the worker's marker reaches neither the CLI nor its tools. knobs
// are the only variables the CLI gets besides PATH.
func cleanEnvCLI(t *testing.T, knobs ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "claude")
	script := "#!/bin/sh\nexec env -i PATH=\"$PATH\" " + strings.Join(knobs, " ") + " " + fakeBin + " \"$@\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStopWedgedUnmarkedCLI (issue 22, item 4): a CLI whose wrapper
// cleared its environment, wedged (SIGSTOPped: it answers neither the
// interrupt nor SIGTERM), whose tool left its session (setsid), ignores
// SIGTERM and started a child in a session of its own. No process
// carries the marker: the Stop finds the tool and its child by the parent
// chain, taken before the first signal, and SIGKILL ends all three.
func TestStopWedgedUnmarkedCLI(t *testing.T) {
	marker := childproc.Marker("w1", childproc.NewRun())
	clk := newFakeClock()
	cli := cleanEnvCLI(t, "FAKECLAUDE_HANG=1", "FAKECLAUDE_IGNORE_INTERRUPT=1",
		"FAKECLAUDE_TOOL=stubborn", "FAKECLAUDE_TOOL_CHILD=1")
	h := newHarness(t, harnessOptions{path: cli, marker: marker, clock: clk})
	a := attach(t, h.rt, "")
	send(t, h, "run the tests")
	var tools []int
	for len(tools) < 2 {
		f := a.until(func(f frame) bool { return isTool(f) && !containsPid(tools, toolPid(t, f)) })
		tools = append(tools, toolPid(t, f))
	}
	t.Cleanup(func() {
		for _, pid := range tools {
			_ = syscall.Kill(pid, syscall.SIGKILL) // a failure guard only
		}
	})
	fds := []int{pin(t, tools[0]), pin(t, tools[1])}
	pid := cliPid(t, h)
	cliFd := pin(t, pid)
	if n := childproc.Signal(childproc.Exact(marker), 0); n != 0 {
		t.Fatalf("%d processes carry the marker: this test needs a CLI without it", n)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}

	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel: %v, %v", ok, err)
	}
	a.until(isStage(wire.StageInterrupting))
	clk.waitTimer(t, InterruptWait)
	clk.advance(InterruptWait)
	a.until(isStage(wire.StageTerminating))
	clk.waitTimer(t, TermGrace)
	if exitedWithin(t, cliFd, 0) {
		t.Fatal("the stopped CLI ended on SIGTERM: this test needs one that cannot take it")
	}
	clk.advance(TermGrace)
	a.until(isStage(wire.StageKilling))
	if !exitedWithin(t, cliFd, waitFor) {
		t.Fatal("SIGKILL did not end the CLI")
	}
	for i, fd := range fds {
		if !exitedWithin(t, fd, waitFor) {
			t.Fatalf("the unmarked setsid process %d (pid %d) survived the Stop", i, tools[i])
		}
	}
	a.until(isStage(wire.StageDone))
}

func containsPid(pids []int, pid int) bool {
	for _, p := range pids {
		if p == pid {
			return true
		}
	}
	return false
}
