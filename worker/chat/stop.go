package chat

import (
	"context"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// The escalating Stop (docs/api-extensions.md, "Stall watchdog and
// escalating stop"): interrupt, then SIGTERM to the CLI, its descendants
// (found by the parent chain, pinned before the first signal, marker or
// not) and every process that carries the worker's marker (tools that
// left the CLI's group and session with setsid included), then SIGKILL.
// The waits run on the Runtime's clock, so tests move a Stop from stage to
// stage at will.
const (
	// InterruptWait is how long a Stop waits for the turn's result after
	// the interrupt before it ends the CLI.
	InterruptWait = 10 * time.Second
	// TermGrace is how long it waits after SIGTERM before SIGKILL.
	TermGrace = 5 * time.Second
	// answerWait bounds how long Cancel waits for the CLI to answer the
	// interrupt before it returns (a forced switch then closes the CLI
	// knowing it got the interrupt); the Stop goes on either way.
	answerWait = 2 * time.Second
)

// escalate runs (or hurries) the Stop of the running turn of CLI p: a
// Stop already under way only moves on to SIGTERM when force asks to. It
// returns a channel closed once the CLI answered the interrupt (or none
// was sent). The caller holds cancelMu.
func (r *Runtime) escalate(p agent.Conn, force bool) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return closed
	}
	if h := r.halting; h != nil {
		if force && !h.forced {
			h.forced = true
			close(h.force)
		}
		return closed
	}
	h := &halt{force: make(chan struct{}), forced: force, answered: make(chan struct{})}
	if force {
		close(h.force)
		close(h.answered)
	}
	r.halting = h
	r.bg.Go(func() { r.halt(p, h) })
	return h.answered
}

// closed is a closed channel.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// halt is one Stop under way. force is closed when it must not wait for
// the interrupt (any longer), answered when the CLI answered it. The
// Runtime's mu guards forced.
type halt struct {
	force    chan struct{}
	forced   bool
	answered chan struct{}
}

// halt is the goroutine of one Stop: it ends when the turn has ended (the
// result, or the CLI's exit, which the reader reports), or when the
// worker stops.
func (r *Runtime) halt(p agent.Conn, h *halt) {
	defer func() {
		r.mu.Lock()
		r.halting = nil
		r.mu.Unlock()
	}()
	idle := r.journal.idleWait()
	select {
	case <-h.force:
	default:
		// The stage goes first: a result that answers the interrupt then
		// follows it, and ends it with done.
		r.stage(wire.StageInterrupting)
		stop := r.interrupt(p, h.answered)
		defer stop()
		select {
		case <-idle:
			return
		case <-r.stopping:
			return
		case <-h.force:
		case <-r.clock.After(InterruptWait):
		}
	}
	r.stage(wire.StageTerminating)
	// Taken before any signal, while the CLI lives: its tools lose their
	// parent when it dies, and may carry no marker (a wrapper that cleared
	// the environment).
	fam := childproc.Pin(p.Ident())
	defer fam.Close()
	r.signalAll(p, fam, syscall.SIGTERM)
	select {
	case <-idle:
		if r.signalAll(nil, fam, 0) == 0 {
			return // everything is gone: no SIGKILL to send
		}
		select { // a tool outlived the CLI: it gets the rest of its grace
		case <-r.stopping:
			return
		case <-r.clock.After(TermGrace):
		}
	case <-r.stopping:
		return // Stop ends what is left
	case <-r.clock.After(TermGrace):
	}
	r.stage(wire.StageKilling)
	fam.Grow() // what the living members started meanwhile
	r.signalAll(p, fam, syscall.SIGKILL)
	if r.env.Marker != "" {
		childproc.Kill(childproc.Exact(r.env.Marker)) // and what forked meanwhile
	}
}

// interrupt sends the interrupt without waiting for the answer, which a
// wedged CLI never gives, and closes answered when it comes (or the wait
// ends); the function it returns abandons the wait.
func (r *Runtime) interrupt(p agent.Conn, answered chan struct{}) func() {
	ctx, cancel := context.WithCancel(r.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(answered)
		if err := p.Interrupt(ctx); err != nil && ctx.Err() == nil {
			r.log.Info("interrupt the agent", "err", err)
		}
	}()
	return func() { cancel(); <-done }
}

// signalAll sends sig to the CLI's process group (p; nil for none), to
// the live members of fam and to every process with the worker's marker,
// wherever it moved, and returns how many of those it found (a process
// may count twice). Signal 0 counts them.
func (r *Runtime) signalAll(p agent.Conn, fam *childproc.Family, sig syscall.Signal) int {
	if p != nil && !exited(p) {
		// Its group id stays reserved while the leader is unreaped.
		_ = p.Signal(sig)
	}
	n := fam.Signal(sig)
	if r.env.Marker == "" {
		return n
	}
	return n + childproc.Signal(childproc.Exact(r.env.Marker), sig)
}

// stage tells the tabs how far a Stop got.
func (r *Runtime) stage(s string) {
	if err := r.journal.produce([]entry{{kind: kStage, frame: wire.StopStage(s)}}); err != nil {
		r.log.Debug("stop stage after stop", "err", err)
	}
}

func exited(p agent.Conn) bool {
	select {
	case <-p.Done():
		return true
	default:
		return false
	}
}
