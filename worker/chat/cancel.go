package chat

import (
	"context"
	"time"
)

// Cancel stops the running turn, first denying pending permission
// requests: it sends the interrupt and, when no result follows within
// InterruptWait, ends the agent and every process it started (stop.go). A
// user message still on its way (its agent starting) is not sent and the
// start is abandoned; a turn shown as running with neither an agent nor a
// message on its way just ends. It reports false, and does nothing, when
// no turn runs. The conversation stays resumable: the next message starts
// an agent that resumes it.
func (r *Runtime) Cancel(ctx context.Context) (bool, error) { return r.cancelTurn(ctx, false) }

// ForceCancel is Cancel without the interrupt: it ends the agent at once
// (SIGTERM, then SIGKILL after TermGrace). A Stop under way moves on to
// that stage.
func (r *Runtime) ForceCancel(ctx context.Context) (bool, error) { return r.cancelTurn(ctx, true) }

// cancelTurn returns once the agent answered the interrupt, or after
// answerWait, or when ctx ends: the Stop goes on in the background.
func (r *Runtime) cancelTurn(ctx context.Context, force bool) (bool, error) {
	sending, unlock := r.gate.stop()
	defer unlock()
	if sending {
		r.slot.abort() // the send then ends the turn
	}
	busy := r.journal.busy()
	p := r.slot.current()
	switch {
	case busy && p != nil:
	case sending:
		return true, nil
	case busy:
		r.reqs.denyAll("The user cancelled this turn") // requests stored before a restart
		r.journal.endTurn()
		return true, nil
	default:
		return false, nil
	}
	r.reqs.denyAll("The user cancelled this turn")
	answered := r.guard.escalate(p, force)
	t := time.NewTimer(answerWait)
	defer t.Stop()
	select {
	case <-answered:
	case <-t.C:
	case <-ctx.Done():
	}
	return true, nil
}
