package chat

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// journal is the write-ahead path of one sdk worker's conversation, from
// the producers (the CLI reader, SendUser, the control handlers, the
// history import) to the tabs. produce numbers the stored entries, queues
// them with the store (group commit) and queues the whole batch for the
// publisher, all under mu, so that seq order, commit order and publish
// order are one order. The publisher waits for each batch's commit and
// then publishes its frames on the hub: a stored message is on disk before
// any tab sees it, and the hub's cursor is always a committed seq.
//
// Besides the log, the journal keeps what a tab that attaches needs and
// the store does not hold: the stream_event frames of the message being
// streamed, the pending permission requests and the activity, all changed
// only by the publisher, under pubMu, with the Publish of the frame that
// changes them; attach snapshots them under pubMu with its subscription.
//
// All methods are safe for concurrent use. The publisher and the activity
// reporter run only while there is work (an idle journal runs no goroutine
// and holds no queue); close ends them.
type journal struct {
	store  *persist.Store
	wid    string
	log    *slog.Logger
	report func(worker.Activity) // tells the manager; called by the reporter only

	mu       sync.Mutex // guards seq, epoch, queue (and sends on it) and closed
	seq      uint64     // the last seq given out
	epoch    uint64     // numbering epoch, see journal_rollback.go
	queue    chan batch // nil while no publisher runs
	closed   bool
	inflight *budget   // frame bytes queued for the publisher
	rb       rollbacks // failed commits, from the publisher to produce

	pubMu    sync.Mutex // guards the hub's publishing and the fields below
	hub      *hub.Hub
	cursor   uint64 // seq of the last published stored message
	turn     turnBuffer
	inTurn   bool
	pending  []*permission
	activity worker.Activity
	stalled  bool          // the watchdog says the running turn stalled (stall.go)
	stage    []byte        // the stop-stage frame of a Stop under way (stop.go), nil when none
	idle     chan struct{} // closed when the activity next becomes idle; nil when nobody waits
	queued   []byte        // the last queue frame (queue.go), sent on attach

	reporter coalescer      // runs reportActivity when the activity changed
	wg       sync.WaitGroup // the publisher and the reporters
	meter    *meter         // usage and rate limits (meter.go); nil: none
}

// newJournal returns the journal of a log whose last stored seq is last.
// report receives the activity whenever it changed (coalesced).
func newJournal(store *persist.Store, wid string, last uint64, log *slog.Logger, report func(worker.Activity)) *journal {
	return &journal{
		store: store, wid: wid, log: log, report: report,
		seq: last, inflight: newBudget(maxInflight),
		hub: hub.New(last), cursor: last, activity: worker.ActivityIdle,
	}
}

// kind says what an entry does to the published state.
type kind uint8

const (
	kStored   kind = iota // a message of the log: stored, then published
	kStream               // a stream_event: published and kept for the turn
	kAsk                  // a permission request: published and kept pending
	kResolved             // a permission answered: its pending request goes
	kExit                 // the CLI exited or never ran: the turn and pending requests end
	kFrame                // any other frame (errors): published only
	kStall                // the watchdog raised (stall) or cleared a stall
	kStage                // a stop-stage frame: published and kept until the turn ends
	kQueue                // the queue frame: published and kept for attach
)

// entry is one frame on its way through the journal.
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
	// wrap, when set, builds the frame in msg's own buffer (wrapFrame;
	// agent.Event.Wrap): msg is the agent's message unchanged.
	wrap func(head, tail []byte) ([]byte, bool)
	// history marks a stored message imported from the session file
	// (import.go): a past turn, so the running turn and the activity are
	// left alone.
	history bool
	// endsMessage marks the stream_event that ends an API message
	// (message_stop): its blocks are all stored by then.
	endsMessage bool
	frame       []byte
	perm        *permission // kAsk, kResolved
	stall       bool        // kStall: raised (true) or cleared
	// blobs are the attachments stored with a kStored message.
	blobs []persist.Blob
}

// batch is what the publisher receives: entries in order and, when some
// are stored, the channel that reports their commit, the seq of the first
// and the numbering epoch (see journal_rollback.go).
type batch struct {
	entries []entry
	commit  <-chan error
	first   uint64
	epoch   uint64
	size    int // frame bytes, held in inflight until published
	// ack, when set, receives the commit's result (nil when nothing is
	// stored) once the batch is published: produceCommitted waits on it.
	ack chan<- error
	// dq, when set, is the queue item the batch's stored user message
	// delivers: the same commit removes it (queue.go).
	dq *dequeue
}

// queueLen bounds the batches between producers and the publisher. When it
// is full, producers wait: the CLI is paced by the disk, never dropped.
const queueLen = 256

// errStopped is returned by produce once the journal is closed.
var errStopped = fmt.Errorf("sdk worker stopped: %w", worker.ErrNotRunning)

// produce numbers, stores and queues entries, in order. It blocks only
// while the store's or the publisher's queue is full.
func (j *journal) produce(es []entry) error {
	return j.produceAck(es, nil, nil)
}

// produceCommitted is produce that waits until the stored entries are
// committed and published (the echo to the tabs), and returns the
// commit's error: what it returns nil for is on disk.
func (j *journal) produceCommitted(es []entry) error {
	return j.produceDequeue(es, nil)
}

// produceDequeue is produceCommitted whose commit also removes the queue
// item dq (when not nil) that the stored user message delivers.
func (j *journal) produceDequeue(es []entry, dq *dequeue) error {
	ack := make(chan error, 1)
	if err := j.produceAck(es, ack, dq); err != nil {
		return err
	}
	// The publisher answers every batch it was given, also while the
	// journal closes: close closes the queue and the publisher drains it.
	return <-ack
}

func (j *journal) produceAck(es []entry, ack chan<- error, dq *dequeue) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return errStopped
	}
	if rb := j.rb.take(); rb != nil {
		j.seq, j.epoch = rb.seq, rb.epoch
	}
	b := batch{entries: es, epoch: j.epoch, ack: ack, dq: dq}
	msgs := j.number(&b)
	j.inflight.acquire(b.size) // the publisher drains: this ends
	switch {
	case dq != nil:
		b.commit = j.store.AppendMessagesDequeue(j.wid, msgs, dq.sid, dq.id, dq.content)
	case len(msgs) > 0:
		b.commit = j.store.AppendMessages(j.wid, msgs)
	}
	if j.queue == nil {
		j.queue = make(chan batch, queueLen)
		q := j.queue
		j.wg.Go(func() { j.publish(q) })
	}
	j.queue <- b
	return nil
}

// number gives b's stored entries their seqs and builds every entry's
// frame, and returns the messages to store. The caller holds mu.
func (j *journal) number(b *batch) []persist.Message {
	var msgs []persist.Message
	for i := range b.entries {
		e := &b.entries[i]
		switch e.kind {
		case kStored:
			j.seq++
			if b.first == 0 {
				b.first = j.seq
			}
			e.seq = j.seq
			if e.wrap != nil && e.html == nil {
				e.frame = wrapFrame(e.seq, e.msg, e.wrap, e.htmlTruncated)
			} else {
				e.frame = sdkFrame(e.seq, e.msg, e.html, e.htmlTruncated)
			}
			msgs = append(msgs, persist.Message{Seq: e.seq, UUID: e.uuid, Data: e.frame, Blobs: e.blobs})
		case kStream:
			e.frame = sdkFrame(j.seq, e.msg, nil, false)
		}
		e.msg, e.html, e.wrap, e.blobs = nil, nil, nil, nil // the frame (or the store) holds them: let a large message go
		b.size += len(e.frame)
	}
	return msgs
}

// waitRoom returns once the publisher has room for more frames (see
// maxInflight): the CLI reader waits here before it takes more lines.
func (j *journal) waitRoom() { j.inflight.wait() }

// close refuses further entries, lets the publisher drain what is queued
// and waits for it and the reporter. Then it kicks the live tabs: later
// attachments get the history from a hub that never publishes.
func (j *journal) close() {
	j.mu.Lock()
	j.closed = true
	if j.queue != nil {
		close(j.queue) // the publisher drains it and ends
	}
	j.mu.Unlock()
	j.wg.Wait()

	j.pubMu.Lock()
	old := j.hub
	j.hub = hub.New(j.cursor)
	j.pubMu.Unlock()
	old.Close()
}
