package sdk

import (
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// The stall watchdog (docs/api-extensions.md, "Stall watchdog and
// escalating stop"). A running turn whose CLI printed nothing for
// stallAfter is stalled, unless the CLI's tools used CPU meanwhile: a long
// test run prints nothing and is not stuck. The CPU time read is that of
// every live process with the worker's marker except the CLI itself (its
// own timers tick while it waits on the API), from /proc/<pid>/stat
// (utime+stime); any change between two checks counts as work. Output
// clears a stall (noteOutput), and so does CPU use seen by a later check.
//
// One watchdog goroutine runs while a turn does: deliver starts it, and it
// ends once the worker is idle with no turn queued, or when Stop begins.

// startWatch starts the watchdog unless it runs or is disabled.
func (r *Runtime) startWatch() {
	if r.stallAfter <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.watching || r.stopped {
		return
	}
	r.watching = true
	r.bg.Go(r.watch)
}

// watch is the watchdog goroutine.
func (r *Runtime) watch() {
	r.stalled.Store(false) // the journal forgot any stall when the last turn ended
	idle := r.journal.idleWait()
	last := r.clock.Now() // the turn's start counts as output
	for {
		base := r.toolCPU()
		select {
		case <-r.stopping:
			return
		case <-idle:
			if !r.turnContinues() {
				return
			}
			r.stalled.Store(false)
			idle, last = r.journal.idleWait(), r.clock.Now()
			continue
		case <-r.clock.After(last.Add(r.stallAfter).Sub(r.clock.Now())):
		}
		if out := time.Unix(0, r.lastOut.Load()); out.After(last) {
			last = out // output came: count from it
			continue
		}
		last = r.clock.Now()
		r.setStall(r.toolCPU() == base)
	}
}

// turnContinues reports whether another turn runs after the watched one
// ended; when not, the watchdog is marked gone, under mu, so that the
// next deliver starts a new one.
func (r *Runtime) turnContinues() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped || !r.journal.busy() {
		r.watching = false
		return false
	}
	return true
}

// toolCPU is the CPU time used so far by the CLI's descendants.
func (r *Runtime) toolCPU() uint64 {
	if r.env.Marker == "" {
		return 0
	}
	r.mu.Lock()
	p := r.proc
	r.mu.Unlock()
	var root childproc.Ident
	skip := 0
	if p != nil {
		// In a sandbox the tools carry no marker: they are found below the
		// process tracked, the CLI itself left out.
		root, skip = p.Ident(), p.Program()
	}
	return childproc.FamilyCPUTicks(root, childproc.Exact(r.env.Marker), skip)
}

// noteOutput is called by the reader for every batch of CLI output: it
// clears a stall.
func (r *Runtime) noteOutput() {
	r.lastOut.Store(r.clock.Now().UnixNano())
	if r.stalled.Load() {
		r.setStall(false)
	}
}

// setStall raises or clears the stall, telling the journal (and so the
// tabs and the manager) only of changes. stallMu keeps a raise and a clear
// from reaching the journal in the other order than they were decided.
func (r *Runtime) setStall(on bool) {
	r.stallMu.Lock()
	defer r.stallMu.Unlock()
	if r.stalled.Swap(on) == on {
		return
	}
	if err := r.journal.produce([]entry{{kind: kStall, stall: on}}); err != nil {
		r.log.Debug("stall after stop", "err", err)
	}
}
