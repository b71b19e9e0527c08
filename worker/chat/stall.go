package chat

import (
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// The stall watchdog (docs/api-extensions.md, "Stall watchdog and
// escalating stop"). A running turn whose agent printed nothing for
// stallAfter is stalled, unless its tools used CPU meanwhile: a long test
// run prints nothing and is not stuck. The CPU time read is that of every
// live process with the worker's marker except the agent itself (its own
// timers tick while it waits on the API), from /proc/<pid>/stat
// (utime+stime); any change between two checks counts as work. Output
// clears a stall (noteOutput), and so does CPU use seen by a later check.
//
// One watchdog goroutine runs while a turn does: a delivered message
// starts it, and it ends once the worker is idle with no turn queued, or
// when Stop begins.

// start starts the watchdog unless it runs or is disabled.
func (d *guard) start() {
	if d.after <= 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.watching || d.closed {
		return
	}
	d.watching = true
	d.wg.Go(d.watch)
}

// watch is the watchdog goroutine.
func (d *guard) watch() {
	d.stalled.Store(false) // the journal forgot any stall when the last turn ended
	idle := d.j.idleWait()
	last := d.clock.Now() // the turn's start counts as output
	for {
		base := d.toolCPU()
		select {
		case <-d.stopping:
			return
		case <-idle:
			if !d.turnContinues() {
				return
			}
			d.stalled.Store(false)
			idle, last = d.j.idleWait(), d.clock.Now()
			continue
		case <-d.clock.After(last.Add(d.after).Sub(d.clock.Now())):
		}
		if out := time.Unix(0, d.lastOut.Load()); out.After(last) {
			last = out // output came: count from it
			continue
		}
		last = d.clock.Now()
		d.setStall(d.toolCPU() == base)
	}
}

// turnContinues reports whether another turn runs after the watched one
// ended; when not, the watchdog is marked gone, under mu, so that the
// next delivered message starts a new one.
func (d *guard) turnContinues() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || !d.j.busy() {
		d.watching = false
		return false
	}
	return true
}

// toolCPU is the CPU time used so far by the agent's descendants: the
// processes with the worker's marker, and (a sandboxed agent's tools carry
// no marker) those below the tracked process, the agent itself left out.
func (d *guard) toolCPU() uint64 {
	if d.marker == "" {
		return 0
	}
	root, program := d.tracked()
	return childproc.FamilyCPUTicks(root, childproc.Exact(d.marker), program)
}

// noteOutput is called by the reader for every batch of the agent's
// output: it clears a stall.
func (d *guard) noteOutput() {
	d.lastOut.Store(d.clock.Now().UnixNano())
	if d.stalled.Load() {
		d.setStall(false)
	}
}

// setStall raises or clears the stall, telling the journal (and so the
// tabs and the manager) only of changes. stallMu keeps a raise and a clear
// from reaching the journal in the other order than they were decided.
func (d *guard) setStall(on bool) {
	d.stallMu.Lock()
	defer d.stallMu.Unlock()
	if d.stalled.Swap(on) == on {
		return
	}
	if err := d.j.produce([]entry{{kind: kStall, stall: on}}); err != nil {
		d.log.Debug("stall after stop", "err", err)
	}
}
