package sdk

import (
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// The pipeline. Producers (the CLI reader, SendUser, control handlers) turn
// their output into entries and hand them to produce, which numbers the
// stored ones, queues them with the store (group commit) and queues the
// whole batch for the publisher, all under seqMu so that seq order, commit
// order and publish order are one order. The publisher waits for each
// batch's commit and then publishes its frames on the hub: a stored message
// is on disk before any client sees it, and the hub's cursor is always a
// committed seq.

// kind says what an entry does to the published state.
type kind uint8

const (
	kStored   kind = iota // a message of the log: stored, then published
	kStream               // a stream_event: published and kept for the turn
	kAsk                  // a permission request: published and kept pending
	kResolved             // a permission answered: its pending request goes
	kExit                 // the CLI exited or never ran: the turn and pending requests end
	kFrame                // any other frame (errors): published only
)

// entry is one frame on its way through the pipeline.
type entry struct {
	kind kind
	// kStored: the CLI line (or user message) with its uuid, its type and
	// the rendered html (nil when none; htmlTruncated when blocks were
	// left out). produce fills seq and frame, and drops msg once the frame
	// holds it.
	msg, html     []byte
	htmlTruncated bool
	uuid, typ     string
	seq           uint64
	// line is the CLI line msg is, when msg is it unchanged: its frame can
	// then be built in the line's buffer (lineFrame).
	line claude.Line
	// history marks a stored message imported from the session file
	// (import.go): a past turn, so the running turn and the activity are
	// left alone.
	history bool
	// endsMessage marks the stream_event that ends an API message
	// (message_stop): its blocks are all stored by then.
	endsMessage bool
	frame       []byte
	perm        *permission // kAsk, kResolved
}

// batch is what the publisher receives: entries in order and, when some
// are stored, the channel that reports their commit, the seq of the first
// and the numbering epoch (see rollback.go).
type batch struct {
	entries []entry
	commit  <-chan error
	first   uint64
	epoch   uint64
	size    int // frame bytes, held in r.inflight until published
	// ack, when set, receives the commit's result (nil when nothing is
	// stored) once the batch is published: produceCommitted waits on it.
	ack chan<- error
}

// queueLen bounds the batches between producers and the publisher. When it
// is full, producers wait: the CLI is paced by the disk, never dropped.
const queueLen = 256

// errStopped is returned by produce once the runtime has stopped.
var errStopped = fmt.Errorf("sdk worker stopped: %w", worker.ErrNotRunning)

// produce numbers, stores and queues entries, in order. It blocks only
// while the store's or the publisher's queue is full.
func (r *Runtime) produce(es []entry) error {
	return r.produceAck(es, nil)
}

// produceCommitted is produce that waits until the stored entries are
// committed and published (the echo to the tabs), and returns the
// commit's error: what it returns nil for is on disk.
func (r *Runtime) produceCommitted(es []entry) error {
	ack := make(chan error, 1)
	if err := r.produceAck(es, ack); err != nil {
		return err
	}
	// The publisher answers every batch it was given, also while the
	// runtime stops: Stop closes the queue and the publisher drains it.
	return <-ack
}

func (r *Runtime) produceAck(es []entry, ack chan<- error) error {
	r.seqMu.Lock()
	defer r.seqMu.Unlock()
	if r.qClosed {
		return errStopped
	}
	r.applyRollback()
	b := batch{entries: es, epoch: r.epoch, ack: ack}
	var msgs []persist.Message
	size := 0
	for i := range es {
		e := &es[i]
		if e.kind == kStored {
			r.seq++
			if b.first == 0 {
				b.first = r.seq
			}
			e.seq = r.seq
			if e.line.Raw != nil && e.html == nil {
				e.frame = lineFrame(e.seq, e.line, e.htmlTruncated)
			} else {
				e.frame = sdkFrame(e.seq, e.msg, e.html, e.htmlTruncated)
			}
			msgs = append(msgs, persist.Message{Seq: e.seq, UUID: e.uuid, Data: e.frame})
		} else if e.kind == kStream {
			e.frame = sdkFrame(r.seq, e.msg, nil, false)
		}
		e.msg, e.html, e.line = nil, nil, claude.Line{} // the frame holds them: let a large line go
		size += len(e.frame)
	}
	r.inflight.acquire(size) // the publisher drains: this ends
	b.size = size
	if len(msgs) > 0 {
		b.commit = r.store.AppendMessages(r.wid, msgs)
	}
	if r.queue == nil {
		r.queue = make(chan batch, queueLen)
		q := r.queue
		r.wg.Go(func() { r.publish(q) })
	}
	r.queue <- b
	return nil
}

// publish is the publisher goroutine of queue q: it ends when q is closed
// and drained, or once the worker is idle and q empty (nextBatch).
func (r *Runtime) publish(q chan batch) {
	for {
		b, ok := r.nextBatch(q)
		if !ok {
			return
		}
		var err error
		if b.commit != nil {
			if err = <-b.commit; err != nil {
				err = r.commitFailed(&b, err)
				r.log.Error("store sdk messages", "err", err)
				// A producer that waits reports the failure itself.
				b.entries = dropStored(b.entries, err, b.ack == nil)
			}
		}
		r.pubMu.Lock()
		changed := false
		for i := range b.entries {
			if r.applyLocked(&b.entries[i]) {
				changed = true
			}
		}
		r.pubMu.Unlock()
		r.inflight.release(b.size)
		if changed {
			r.activityChanged()
		}
		if b.ack != nil {
			b.ack <- err
		}
	}
}

// nextBatch waits for q's next batch. It returns false when q is closed
// and drained, or when the worker is idle with nothing queued: then the
// publisher ends and gives q up, and the next produce starts another.
func (r *Runtime) nextBatch(q chan batch) (batch, bool) {
	select {
	case b, ok := <-q:
		return b, ok
	default:
	}
	if r.Activity() == worker.ActivityIdle {
		r.seqMu.Lock()
		idle := len(q) == 0 && r.queue == q
		if idle {
			r.queue = nil
		}
		r.seqMu.Unlock()
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
			out = append(out, entry{kind: kFrame, frame: errorFrame("internal", msg)})
			reported = true
		}
	}
	return out
}

// applyLocked publishes one entry and updates the state a new attachment
// snapshots, in one step under pubMu. It reports whether the activity
// changed.
func (r *Runtime) applyLocked(e *entry) bool {
	cursor := r.cursor
	switch e.kind {
	case kStored:
		cursor = e.seq
		if e.history {
			break
		}
		if e.typ == "result" {
			r.clearTurnLocked()
			r.inTurn = false
		} else {
			r.inTurn = true
		}
	case kStream:
		r.inTurn = true
		r.keepStreamLocked(e)
	case kAsk:
		r.pending = append(r.pending, e.perm)
	case kResolved:
		r.removePendingLocked(e.perm)
	case kExit:
		for _, p := range r.pending {
			r.hub.Publish(cursor, hub.Frame{Data: resolvedFrame(p.id, "deny")})
		}
		r.pending, r.inTurn = nil, false
		r.clearTurnLocked()
	}
	r.cursor = cursor
	if e.frame != nil {
		r.hub.Publish(cursor, hub.Frame{Data: e.frame})
	}
	return r.refreshActivityLocked()
}

// refreshActivityLocked derives the activity from the published state and
// publishes it when it changed.
func (r *Runtime) refreshActivityLocked() bool {
	a := worker.ActivityIdle
	switch {
	case len(r.pending) > 0:
		a = worker.ActivityAsking
	case r.inTurn:
		a = worker.ActivityActive
	}
	if a == r.activity {
		return false
	}
	r.activity = a
	r.hub.Publish(r.cursor, hub.Frame{Data: activityFrame(a)})
	return true
}

func (r *Runtime) removePendingLocked(p *permission) {
	for i, q := range r.pending {
		if q == p {
			r.pending = append(r.pending[:i:i], r.pending[i+1:]...)
			return
		}
	}
}
