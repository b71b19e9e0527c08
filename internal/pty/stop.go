package pty

import (
	"context"
	"syscall"
	"time"
)

// DefaultGrace is how long Stop lets the child end after SIGHUP and SIGTERM
// before it sends SIGKILL.
const DefaultGrace = 3 * time.Second

// Stop ends the child's whole session: SIGHUP and SIGTERM, then SIGKILL
// after DefaultGrace or when ctx ends, whichever is first. It returns once
// the child is reaped and both goroutines have ended. It is safe to call
// more than once and after the child exited by itself.
func (p *Proc) Stop(ctx context.Context) error {
	select {
	case <-p.done:
	default:
		p.terminate(ctx)
	}
	// Whatever is left of the session is killed: an interactive shell's
	// background jobs live in process groups of their own, and a job may
	// ignore the polite signals.
	p.signalSession(syscall.SIGKILL)
	<-p.done
	p.wg.Wait()
	return nil
}

// terminate asks the session to end and waits up to the grace period.
func (p *Proc) terminate(ctx context.Context) {
	// SIGHUP is what closing a terminal sends: an interactive shell ignores
	// SIGTERM but exits on SIGHUP, passing it on to its jobs.
	p.signalSession(syscall.SIGHUP)
	p.signalSession(syscall.SIGTERM)
	t := time.NewTimer(DefaultGrace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-ctx.Done():
	case <-t.C:
	}
}

// signalSession sends sig to the child's process group and to every other
// process of its session.
func (p *Proc) signalSession(sig syscall.Signal) {
	pid := p.Pid()
	p.mu.Lock()
	reaped := p.state != nil
	p.mu.Unlock()
	// Once the leader is reaped its pid could in principle be reused, so
	// only processes found in its session (which pin the id) are signalled.
	if !reaped {
		_ = syscall.Kill(-pid, sig) // ESRCH: already gone
	}
	for _, m := range sessionMembers(pid) {
		_ = syscall.Kill(m, sig)
	}
}

// KillSession sends SIGKILL to every process in session sid: what is left
// of a Proc whose pid was sid when the server died without stopping it.
func KillSession(sid int) {
	if sid <= 1 {
		return // never the caller's own group or init
	}
	_ = syscall.Kill(-sid, syscall.SIGKILL)
	for _, m := range sessionMembers(sid) {
		_ = syscall.Kill(m, syscall.SIGKILL)
	}
}
