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
// escalating stop"): interrupt, then SIGTERM to the agent, its descendants
// (found by the parent chain, pinned before the first signal, marker or
// not) and every process that carries the worker's marker (tools that
// left the agent's group and session with setsid included), then SIGKILL.
// The waits run on the guard's clock, so tests move a Stop from stage to
// stage at will.
const (
	// InterruptWait is how long a Stop waits for the turn's result after
	// the interrupt before it ends the agent.
	InterruptWait = 10 * time.Second
	// TermGrace is how long it waits after SIGTERM before SIGKILL.
	TermGrace = 5 * time.Second
	// answerWait bounds how long Cancel waits for the agent to answer the
	// interrupt before it returns (a forced switch then closes the agent
	// knowing it got the interrupt); the Stop goes on either way.
	answerWait = 2 * time.Second
)

// escalate runs (or hurries) the Stop of the running turn of agent p: a
// Stop already under way only moves on to SIGTERM when force asks to. It
// returns a channel closed once the agent answered the interrupt (or none
// was sent). The caller holds the send gate (gate.stop).
func (s *guard) escalate(p agent.Conn, force bool) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return closed
	}
	if h := s.halting; h != nil {
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
	s.halting = h
	s.wg.Go(func() { s.halt(p, h) })
	return h.answered
}

// halt is the goroutine of one Stop: it ends when the turn has ended (the
// result, or the agent's exit, which the reader reports), or when the
// worker stops.
func (s *guard) halt(p agent.Conn, h *halt) {
	defer func() {
		s.mu.Lock()
		s.halting = nil
		s.mu.Unlock()
	}()
	idle := s.j.idleWait()
	select {
	case <-h.force:
	default:
		// The stage goes first: a result that answers the interrupt then
		// follows it, and ends it with done.
		s.stage(wire.StageInterrupting)
		stop := s.interrupt(p, h.answered)
		defer stop()
		select {
		case <-idle:
			return
		case <-s.stopping:
			return
		case <-h.force:
		case <-s.clock.After(InterruptWait):
		}
	}
	s.terminate(p, idle)
}

// terminate is the Stop after the interrupt: SIGTERM, then SIGKILL to
// what is left after TermGrace.
func (s *guard) terminate(p agent.Conn, idle <-chan struct{}) {
	s.stage(wire.StageTerminating)
	// Taken before any signal, while the agent lives: its tools lose their
	// parent when it dies, and may carry no marker (a wrapper that cleared
	// the environment).
	fam := childproc.Pin(p.Ident())
	defer fam.Close()
	s.signalAll(p, fam, syscall.SIGTERM)
	select {
	case <-idle:
		if s.signalAll(nil, fam, 0) == 0 {
			return // everything is gone: no SIGKILL to send
		}
		select { // a tool outlived the agent: it gets the rest of its grace
		case <-s.stopping:
			return
		case <-s.clock.After(TermGrace):
		}
	case <-s.stopping:
		return // Stop ends what is left
	case <-s.clock.After(TermGrace):
	}
	s.stage(wire.StageKilling)
	fam.Grow() // what the living members started meanwhile
	s.signalAll(p, fam, syscall.SIGKILL)
	if s.marker != "" {
		childproc.Kill(childproc.Exact(s.marker)) // and what forked meanwhile
	}
}

// interrupt sends the interrupt without waiting for the answer, which a
// wedged agent never gives, and closes answered when it comes (or the
// wait ends); the function it returns abandons the wait.
func (s *guard) interrupt(p agent.Conn, answered chan struct{}) func() {
	ctx, cancel := context.WithCancel(s.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(answered)
		if err := p.Interrupt(ctx); err != nil && ctx.Err() == nil {
			s.log.Info("interrupt the agent", "err", err)
		}
	}()
	return func() { cancel(); <-done }
}

// signalAll sends sig to the agent's process group (p; nil for none), to
// the live members of fam and to every process with the worker's marker,
// wherever it moved, and returns how many of those it found (a process
// may count twice). Signal 0 counts them.
func (s *guard) signalAll(p agent.Conn, fam *childproc.Family, sig syscall.Signal) int {
	if p != nil && !exited(p) {
		// Its group id stays reserved while the leader is unreaped.
		_ = p.Signal(sig)
	}
	n := fam.Signal(sig)
	if s.marker == "" {
		return n
	}
	return n + childproc.Signal(childproc.Exact(s.marker), sig)
}

// stage tells the tabs how far a Stop got.
func (s *guard) stage(st string) {
	if err := s.j.produce([]entry{{kind: kStage, frame: wire.StopStage(st)}}); err != nil {
		s.log.Debug("stop stage after stop", "err", err)
	}
}
