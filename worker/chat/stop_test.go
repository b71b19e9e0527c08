package chat

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// stopHarness is a harness whose CLI hangs in its turns (fakeclaude's
// FAKECLAUDE_HANG), with a marker, a fake clock and the extra knobs.
func stopHarness(t *testing.T, stall time.Duration, knobs ...string) (*harness, *fakeClock, string) {
	t.Helper()
	marker := childproc.Marker("w1", childproc.NewRun())
	// A failure guard only: a passing test leaves nothing to kill.
	t.Cleanup(func() { childproc.Kill(childproc.Exact(marker)) })
	clk := newFakeClock()
	h := newHarness(t, harnessOptions{marker: marker, clock: clk, stall: stall,
		env: append([]string{"FAKECLAUDE_HANG=1"}, knobs...)})
	return h, clk, marker
}

func isStage(s string) func(frame) bool {
	return func(f frame) bool { return f.Type == wire.TypeStopStage && f.Stage == s }
}

// stages lists the stop-stage frames among fs, in order.
func stages(fs []frame) []string {
	var out []string
	for _, f := range fs {
		if f.Type == wire.TypeStopStage {
			out = append(out, f.Stage)
		}
	}
	return out
}

func isTool(f frame) bool { return f.stored() && f.Message.Type == "fakeclaude" }

// toolPid is the pid in fakeclaude's tool line.
func toolPid(t *testing.T, f frame) int {
	t.Helper()
	var l struct{ Pid int }
	if err := json.Unmarshal(f.Raw, &l); err != nil || l.Pid == 0 {
		t.Fatalf("tool line %s: %v", f.Raw, err)
	}
	return l.Pid
}

// cliPid is the pid of the running CLI.
func cliPid(t *testing.T, h *harness) int {
	t.Helper()
	p := h.rt.slot.current()
	if p == nil {
		t.Fatal("no CLI runs")
	}
	return p.Ident().Pid
}

// pin opens a pidfd on pid, so its exit can be waited for.
func pin(t *testing.T, pid int) int {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// exitedWithin reports whether the process behind fd exited within d
// (0: is it gone now).
func exitedWithin(t *testing.T, fd int, d time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(max(time.Until(deadline), 0)/time.Millisecond))
		if err != nil && !errors.Is(err, unix.EINTR) {
			t.Fatalf("poll: %v", err)
		}
		if n > 0 || time.Now().After(deadline) {
			return n > 0
		}
	}
}

// noneLeft fails when a process with the marker still runs.
func noneLeft(t *testing.T, marker string) {
	t.Helper()
	if n := childproc.Signal(childproc.Exact(marker), 0); n != 0 {
		t.Errorf("%d processes with the worker's marker left", n)
	}
}

// TestStopEscalates: a CLI that ignores the interrupt, whose tool left its
// session (setsid) and ignores SIGTERM. Stop interrupts, SIGTERMs the CLI
// and the tool InterruptWait later, and SIGKILLs the tool TermGrace after
// that; nothing with the worker's marker is left, and the next message
// resumes the conversation. A forced Stop of that turn skips the
// interrupt.
func TestStopEscalates(t *testing.T) {
	h, clk, marker := stopHarness(t, 0, "FAKECLAUDE_IGNORE_INTERRUPT=1", "FAKECLAUDE_TOOL=stubborn")
	a := attach(t, h.rt, "")
	send(t, h, "run the tests")
	tool := pin(t, toolPid(t, a.until(isTool)))
	cli := pin(t, cliPid(t, h))

	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel: %v, %v", ok, err)
	}
	a.until(isStage(wire.StageInterrupting))
	clk.waitTimer(t, InterruptWait)
	if exitedWithin(t, cli, 0) {
		t.Fatal("the CLI ended before the interrupt wait was over")
	}
	clk.advance(InterruptWait)
	a.until(isStage(wire.StageTerminating))
	if !exitedWithin(t, cli, waitFor) {
		t.Fatal("SIGTERM did not end the CLI")
	}
	clk.waitTimer(t, TermGrace)
	if exitedWithin(t, tool, 0) {
		t.Fatal("the tool ended on SIGTERM: this test needs one that ignores it")
	}
	clk.advance(TermGrace)
	a.until(isStage(wire.StageKilling))
	if !exitedWithin(t, tool, waitFor) {
		t.Fatal("SIGKILL did not end the setsid tool")
	}
	exit := a.until(isType("exit"))
	a.until(isStage(wire.StageDone))
	if !strings.Contains(string(exit.raw), `"signal":"SIGTERM"`) {
		t.Errorf("exit frame %s: want the CLI ended by SIGTERM", exit.raw)
	}
	want := []string{wire.StageInterrupting, wire.StageTerminating, wire.StageKilling, wire.StageDone}
	if got := stages(a.frames); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("stages %v, want %v", got, want)
	}
	noneLeft(t, marker)

	// The conversation goes on with --resume; a forced Stop starts at SIGTERM.
	a.frames = nil
	send(t, h, "again")
	if args := h.args(); !strings.Contains(args[len(args)-1], "--resume") {
		t.Errorf("the CLI after the Stop started with %q, want --resume", args[len(args)-1])
	}
	tool = pin(t, toolPid(t, a.until(isTool)))
	if ok, err := h.rt.ForceCancel(t.Context()); !ok || err != nil {
		t.Fatalf("ForceCancel: %v, %v", ok, err)
	}
	a.until(isStage(wire.StageTerminating))
	clk.waitTimer(t, TermGrace)
	clk.advance(TermGrace)
	a.until(isStage(wire.StageDone))
	if !exitedWithin(t, tool, waitFor) {
		t.Fatal("the second tool still runs")
	}
	want = []string{wire.StageTerminating, wire.StageKilling, wire.StageDone}
	if got := stages(a.frames); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("forced stop stages %v, want %v", got, want)
	}
	noneLeft(t, marker)
}

// TestStopInterruptAnswered: a CLI that honours the interrupt ends the
// turn with its result; the Stop ends there, and the CLI keeps running.
func TestStopInterruptAnswered(t *testing.T) {
	h, _, _ := stopHarness(t, 0)
	a := attach(t, h.rt, "")
	send(t, h, "run the tests")
	a.until(func(f frame) bool { return f.stored() && f.Message.Type == "assistant" })
	cli := pin(t, cliPid(t, h))
	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel: %v, %v", ok, err)
	}
	a.until(isStage(wire.StageDone))
	if !a.has(isResult) {
		t.Error("the Stop ended before the turn's result")
	}
	want := []string{wire.StageInterrupting, wire.StageDone}
	if got := stages(a.frames); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("stages %v, want %v", got, want)
	}
	if exitedWithin(t, cli, 0) {
		t.Error("the CLI ended: an answered interrupt must leave it running")
	}
}

// TestStopTermSuffices: a CLI that ignores the interrupt but not SIGTERM
// and has no tool left: the Stop ends at SIGTERM, with no SIGKILL stage.
func TestStopTermSuffices(t *testing.T) {
	h, clk, marker := stopHarness(t, 0, "FAKECLAUDE_IGNORE_INTERRUPT=1")
	a := attach(t, h.rt, "")
	send(t, h, "run the tests")
	a.until(func(f frame) bool { return f.stored() && f.Message.Type == "assistant" })
	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel: %v, %v", ok, err)
	}
	a.until(isStage(wire.StageInterrupting))
	clk.waitTimer(t, InterruptWait)
	clk.advance(InterruptWait)
	a.until(isStage(wire.StageDone))
	want := []string{wire.StageInterrupting, wire.StageTerminating, wire.StageDone}
	if got := stages(a.frames); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("stages %v, want %v", got, want)
	}
	noneLeft(t, marker)
}

// has reports whether a frame read so far matches cond.
func (r *reader) has(cond func(frame) bool) bool {
	for _, f := range r.frames {
		if cond(f) {
			return true
		}
	}
	return false
}
