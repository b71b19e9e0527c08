package chat

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/persist"
)

// Delivery of the queue. When the chat is idle (no turn runs, no
// permission request waits), the first item becomes the next user message
// through the same path as SendUser (stored, echoed to every tab, written
// to the CLI). The commit that stores the message also removes the item
// (persist.AppendMessagesDequeue): a crash leaves either the item queued
// or the message stored, never both and never neither. Items are delivered
// in order: a first item whose notBefore is still ahead holds back those
// behind it, and a timer wakes the delivery at that time.
//
// The delivery runs on one goroutine at a time (a coalescer), started by
// poke: when the activity goes idle (Runtime.reportActivity), after every
// change of the queue, when the timer fires, and once at start (a queue
// left by a restart is delivered). Stop halts it (no new poke starts one,
// the timer is stopped) and waits for it.

// queueClock is the time the queue lives by: tests use a fake one.
type queueClock interface {
	Now() time.Time
	// AfterFunc calls f after d on its own goroutine; stop cancels it and
	// reports whether it did.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type wallQueueClock struct{}

func (wallQueueClock) Now() time.Time { return time.Now() }
func (wallQueueClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// maxDeliverTries bounds one delivery's retries when the queue changed
// under it (an edit between reading the first item and storing it).
const maxDeliverTries = 8

// queue is a Runtime's part of the session's queue: the delivery's state.
type queue struct {
	r     *Runtime
	sid   string
	clock queueClock

	// mu orders the queue's changes and deliveries with the frames they
	// publish (queue.go).
	mu sync.Mutex

	life   sync.Mutex // guards the fields below
	halted bool
	held   bool        // a delivery failed: wait for the person
	stopT  func() bool // the armed notBefore timer, nil when none
	ctx    context.Context
	cancel context.CancelFunc
	runner coalescer
	wg     sync.WaitGroup // the delivery goroutine
}

func newQueue(r *Runtime, sid string) *queue {
	q := &queue{r: r, sid: sid, clock: wallQueueClock{}}
	q.ctx, q.cancel = context.WithCancel(context.Background())
	return q
}

// frame returns the stored queue's frame, for the journal to send on
// attach before any change was published; nil for an empty queue (a tab
// starts with none).
func (q *queue) frame() []byte {
	items, err := q.r.env.Store.Queue(q.sid)
	if err != nil {
		q.r.log.Error("read queue", "err", err)
		return nil
	}
	if len(items) == 0 {
		return nil
	}
	return q.r.queueEntry(items).frame
}

// poke wakes the delivery unless the queue is halted or held.
func (q *queue) poke() {
	q.life.Lock()
	defer q.life.Unlock()
	if q.halted || q.held {
		return
	}
	q.runner.poke(&q.wg, q.run)
}

// release lets a held queue deliver again: the person acted.
func (q *queue) release() {
	q.life.Lock()
	q.held = false
	q.life.Unlock()
}

// hold stops automatic delivery after a failed one, so a CLI that cannot
// start does not turn the whole queue into unanswered messages.
func (q *queue) hold() {
	q.life.Lock()
	q.held = true
	q.life.Unlock()
}

// arm sets the timer for an item due at at, replacing any other.
func (q *queue) arm(at time.Time) {
	q.life.Lock()
	defer q.life.Unlock()
	if q.halted {
		return
	}
	if q.stopT != nil {
		q.stopT()
	}
	q.stopT = q.clock.AfterFunc(at.Sub(q.clock.Now()), q.poke)
}

// halt stops new deliveries and the timer, without waiting.
func (q *queue) halt() {
	q.life.Lock()
	q.halted = true
	if q.stopT != nil {
		q.stopT()
		q.stopT = nil
	}
	q.life.Unlock()
	q.cancel()
}

// wait waits for a delivery in flight, after halt.
func (q *queue) wait() { q.wg.Wait() }

// run is the delivery goroutine's work: deliver the first item if the
// chat is idle and it is due.
func (q *queue) run() {
	select {
	case <-q.r.imported:
	case <-q.ctx.Done():
		return
	}
	for range maxDeliverTries {
		err := q.deliverFirst()
		if !errors.Is(err, persist.ErrChanged) {
			if err != nil && !errors.Is(err, errStopped) && q.ctx.Err() == nil {
				q.r.log.Warn("deliver queued message", "err", err)
				q.hold()
			}
			return
		}
	}
}

// deliverFirst delivers the first item when the chat is idle and the item
// due; it returns an error wrapping persist.ErrChanged when the queue
// changed meanwhile.
func (q *queue) deliverFirst() error {
	r := q.r
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	if q.ctx.Err() != nil || r.readOnly || r.isStopped() || r.journal.busy() {
		return nil
	}
	items, err := r.env.Store.Queue(q.sid)
	if err != nil || len(items) == 0 {
		return err
	}
	first := items[0]
	if first.NotBefore != nil && first.NotBefore.After(q.clock.Now()) {
		q.arm(*first.NotBefore)
		return nil
	}
	files, err := r.queuedFiles(first)
	if err != nil {
		return err
	}
	store := func(es []entry) error {
		q.mu.Lock()
		defer q.mu.Unlock()
		// An edit may have come since the read above: the commit would
		// refuse the item then, but a refused commit costs the journal a
		// rollback, so look again first.
		cur, err := r.env.Store.Queue(q.sid)
		if err != nil {
			return err
		}
		if len(cur) == 0 || cur[0].ID != first.ID || cur[0].Content != first.Content {
			return fmt.Errorf("deliver queued message: %w", persist.ErrChanged)
		}
		dq := &dequeue{sid: q.sid, id: first.ID, content: first.Content}
		return r.journal.produceDequeue(append(es, r.queueEntry(cur[1:])), dq)
	}
	return r.sendLocked(first.Content, files, store)
}

// dequeue names the queue item a stored user message delivers.
type dequeue struct {
	sid, id, content string
}
