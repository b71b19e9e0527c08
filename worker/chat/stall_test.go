package chat

import (
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/worker"
)

const stallAfter = time.Minute

func isActivity(a worker.Activity) func(frame) bool {
	return func(f frame) bool { return f.Type == "activity" && f.State == string(a) }
}

func (h *harness) waitActivity(a worker.Activity) {
	h.t.Helper()
	h.waitInfo(func(i worker.Info) bool { return i.Activity != nil && *i.Activity == a })
}

// TestStallRaisedAndCleared: a turn silent for stallAfter on the fake clock
// is stalled, in the tabs and in the worker's record; output clears it;
// the end of the turn clears it too.
func TestStallRaisedAndCleared(t *testing.T) {
	h, clk, _ := stopHarness(t, stallAfter)
	a := attach(t, h.rt, "")
	send(t, h, "run the tests")
	a.until(func(f frame) bool { return f.stored() && f.Message.Type == "assistant" })
	clk.waitTimer(t, stallAfter)
	clk.advance(stallAfter)
	a.until(isActivity(worker.ActivityStalled))
	h.waitActivity(worker.ActivityStalled)

	send(t, h, "are you there?") // the hanging fake echoes it: output
	a.until(isActivity(worker.ActivityActive))
	h.waitActivity(worker.ActivityActive)

	clk.waitTimer(t, stallAfter)
	clk.advance(stallAfter)
	a.until(isActivity(worker.ActivityStalled))
	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel: %v, %v", ok, err)
	}
	a.until(isResult)
	a.until(isActivity(worker.ActivityIdle))
	h.waitActivity(worker.ActivityIdle)
}

// TestBusyToolIsNotAStall: a tool that prints nothing but uses CPU keeps
// the turn from stalling; once it is gone, the silence is a stall.
func TestBusyToolIsNotAStall(t *testing.T) {
	h, clk, marker := stopHarness(t, stallAfter, "FAKECLAUDE_TOOL=busy")
	a := attach(t, h.rt, "")
	send(t, h, "run the tests")
	tool := toolPid(t, a.until(isTool))
	cli := cliPid(t, h)
	clk.waitTimer(t, stallAfter)
	// The watchdog read the tools' CPU time before it armed its timer: wait
	// until the tool used more, then let the timer fire.
	m := childproc.Exact(marker)
	seen := childproc.CPUTicks(m, cli)
	for deadline := time.Now().Add(waitFor); childproc.CPUTicks(m, cli) <= seen; {
		if time.Now().After(deadline) {
			t.Fatal("the busy tool used no CPU")
		}
		time.Sleep(10 * time.Millisecond) // polling interval: a clock tick
	}
	clk.advance(stallAfter)
	clk.waitTimer(t, stallAfter) // the check is done: the next one is armed
	if h.rt.guard.stalled.Load() || h.rt.Activity() != worker.ActivityActive {
		t.Fatalf("a turn whose tool works is %s", h.rt.Activity())
	}

	fd := pin(t, tool)
	if err := unix.PidfdSendSignal(fd, syscall.SIGKILL, nil, 0); err != nil {
		t.Fatal(err)
	}
	if !exitedWithin(t, fd, waitFor) {
		t.Fatal("the tool outlived SIGKILL")
	}
	clk.advance(stallAfter) // the tool's end is a change: not yet a stall
	clk.waitTimer(t, stallAfter)
	clk.advance(stallAfter) // nothing moved since
	a.until(isActivity(worker.ActivityStalled))
}
