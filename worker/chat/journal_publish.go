package chat

import (
	"errors"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// publish is the publisher goroutine of queue q: it ends when q is closed
// and drained, or once the worker is idle and q empty (nextBatch).
func (j *journal) publish(q chan batch) {
	for {
		b, ok := j.nextBatch(q)
		if !ok {
			return
		}
		var err error
		if b.commit != nil {
			if err = <-b.commit; err != nil {
				err = j.rb.failed(&b, err)
				j.log.Error("store sdk messages", "err", err)
				// A producer that waits reports the failure itself.
				b.entries = dropStored(b.entries, err, b.ack == nil)
			}
		}
		j.meter.observe(b.entries, &j.wg) // before the result is shown
		j.pubMu.Lock()
		j.hub.Hold() // each tab's writer wakes once for the batch (hub.Hold)
		changed := j.applyAllLocked(b.entries)
		j.hub.Release()
		j.pubMu.Unlock()
		j.inflight.release(b.size)
		if changed {
			// The publisher's goroutine keeps wg above zero meanwhile.
			j.reporter.poke(&j.wg, j.reportActivity)
		}
		if b.ack != nil {
			b.ack <- err
		}
	}
}

// nextBatch waits for q's next batch. It returns false when q is closed
// and drained, or when the worker is idle with nothing queued: then the
// publisher ends and gives q up, and the next produce starts another.
func (j *journal) nextBatch(q chan batch) (batch, bool) {
	select {
	case b, ok := <-q:
		return b, ok
	default:
	}
	if j.currentActivity() == worker.ActivityIdle {
		j.mu.Lock()
		idle := len(q) == 0 && j.queue == q
		if idle {
			j.queue = nil
		}
		j.mu.Unlock()
		if idle {
			return batch{}, false
		}
	}
	b, ok := <-q
	return b, ok
}

// dropStored replaces the stored entries of a batch whose commit failed by
// one error frame (none unless report): what is not on disk is never sent.
func dropStored(es []entry, err error, report bool) []entry {
	out := es[:0]
	reported := !report
	for _, e := range es {
		if e.kind != kStored {
			out = append(out, e)
			continue
		}
		if !reported {
			msg := "could not store a message of this conversation; it is not shown"
			if errors.Is(err, persist.ErrClosed) {
				msg = "the server is shutting down; a message was not stored"
			}
			out = append(out, entry{kind: kFrame, frame: wire.Error(wire.CodeInternal, msg)})
			reported = true
		}
	}
	return out
}

// applyAllLocked applies a batch's entries in order. A run of bulk
// entries (an import's batch) is published as one history-appended notice
// at the cursor of its last: a tab attached before it gets the notice, one
// attached after it gets the messages in its replay, as the subscription
// and the batch are cut under pubMu. It reports whether the activity
// changed.
func (j *journal) applyAllLocked(es []entry) bool {
	changed := false
	run, last := 0, ""
	for i := range es {
		e := &es[i]
		if e.kind == kStored && e.bulk {
			j.cursor = e.seq
			j.bulk.add(e.seq, e.uuid)
			run, last = run+1, e.uuid
			continue
		}
		if run > 0 {
			j.hub.Publish(j.cursor, hub.Frame{Data: wire.HistoryAppended(run, last)})
			run = 0
		}
		if j.applyLocked(e) {
			changed = true
		}
	}
	if run > 0 {
		j.hub.Publish(j.cursor, hub.Frame{Data: wire.HistoryAppended(run, last)})
	}
	return changed
}

// applyLocked publishes one entry and updates the state a new attachment
// snapshots, in one step under pubMu. It reports whether the activity
// changed.
func (j *journal) applyLocked(e *entry) bool {
	cursor := j.cursor
	switch e.kind {
	case kStored:
		cursor = e.seq
		if e.history {
			break
		}
		switch e.typ {
		case "result":
			j.turn.clear()
			j.inTurn, j.stalled = false, false
		case "user", "assistant":
			j.inTurn = true
		}
		// Other messages begin no turn: an agent also prints them while idle
		// (system/status after a mode change, a background task's note),
		// and a turn always begins with a user message.
	case kStream:
		j.inTurn = true
		j.turn.keep(e)
	case kAsk:
		j.pending = append(j.pending, e.perm)
	case kResolved:
		j.removePendingLocked(e.perm)
	case kQueue:
		j.queued = e.frame
	case kExit:
		var kept []*permission
		for _, p := range j.pending {
			if p.proc == nil {
				kept = append(kept, p) // stored before a restart: no agent ended it
				continue
			}
			j.hub.Publish(cursor, hub.Frame{Data: wire.PermissionResolved(p.id, "deny")})
		}
		j.pending, j.inTurn, j.stalled = kept, false, false
		j.turn.clear()
	case kStall:
		j.stalled = e.stall && j.inTurn
	case kStage:
		if j.activity == worker.ActivityIdle {
			e.frame = nil // the turn ended before this stage: nothing to show
		} else {
			j.stage = e.frame
		}
	}
	j.cursor = cursor
	if e.frame != nil {
		j.hub.Publish(cursor, hub.Frame{Data: e.frame})
	}
	return j.refreshActivityLocked()
}

// refreshActivityLocked derives the activity from the published state and
// publishes it when it changed.
func (j *journal) refreshActivityLocked() bool {
	a := worker.ActivityIdle
	switch {
	case len(j.pending) > 0:
		a = worker.ActivityAsking
	case j.inTurn && j.stalled:
		a = worker.ActivityStalled
	case j.inTurn:
		a = worker.ActivityActive
	}
	if a == j.activity {
		return false
	}
	j.activity = a
	j.hub.Publish(j.cursor, hub.Frame{Data: wire.Activity(string(a))})
	if a == worker.ActivityIdle {
		j.turnEndedLocked()
	}
	return true
}

// turnEndedLocked ends what lives only as long as a turn: a Stop's stage
// (its last frame, done, goes out first) and the waits for the end.
func (j *journal) turnEndedLocked() {
	if j.stage != nil {
		j.stage = nil
		j.hub.Publish(j.cursor, hub.Frame{Data: wire.StopStage(wire.StageDone)})
	}
	if j.idle != nil {
		close(j.idle)
		j.idle = nil
	}
}

// reportActivity passes the activity to the manager. Its report writes to
// the database, so it runs on the reporter and not on the publisher: a
// burst of changes costs one report with the latest state.
func (j *journal) reportActivity() {
	if j.report != nil {
		j.report(j.currentActivity())
	}
}
