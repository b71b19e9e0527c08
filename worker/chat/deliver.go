package chat

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentdesk/agentdesk/persist"
)

// Delivery of the queue. When the chat is idle (no turn runs, no
// permission request waits), the first item becomes the next user message
// through the same path as SendUser (stored, echoed to every tab, written
// to the agent). The commit that stores the message also removes the item
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

// maxDeliverTries bounds one delivery's retries when the queue changed
// under it (an edit between reading the first item and storing it).
const maxDeliverTries = 8

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

// hold stops automatic delivery after a failed one, so an agent that cannot
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
}

// isHalted reports whether halt was called.
func (q *queue) isHalted() bool {
	q.life.Lock()
	defer q.life.Unlock()
	return q.halted
}

// wait waits for a delivery in flight, after halt.
func (q *queue) wait() { q.wg.Wait() }

// run is the delivery goroutine's work: deliver the first item if the
// chat is idle and it is due.
func (q *queue) run() {
	select {
	case <-q.imported:
	case <-q.stopping:
		return
	}
	for range maxDeliverTries {
		err := q.deliverFirst()
		if !errors.Is(err, persist.ErrChanged) {
			if err != nil && !errors.Is(err, errStopped) && !q.isHalted() {
				q.log.Warn("deliver queued message", "err", err)
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
	q.snd.lock()
	defer q.snd.unlock()
	if q.isHalted() || q.readOnly || isClosed(q.stopping) || q.j.busy() {
		return nil
	}
	items, err := q.store.Queue(q.sid)
	if err != nil || len(items) == 0 {
		return err
	}
	first := items[0]
	if first.NotBefore != nil && first.NotBefore.After(q.clock.Now()) {
		q.arm(*first.NotBefore)
		return nil
	}
	files, err := q.files(first)
	if err != nil {
		return err
	}
	store := func(es []entry) error {
		q.mu.Lock()
		defer q.mu.Unlock()
		// An edit may have come since the read above: the commit would
		// refuse the item then, but a refused commit costs the journal a
		// rollback, so look again first.
		cur, err := q.store.Queue(q.sid)
		if err != nil {
			return err
		}
		if len(cur) == 0 || cur[0].ID != first.ID || cur[0].Content != first.Content {
			return fmt.Errorf("deliver queued message: %w", persist.ErrChanged)
		}
		dq := &dequeue{sid: q.sid, id: first.ID, content: first.Content}
		return q.j.produceDequeue(append(es, q.entry(cur[1:])), dq)
	}
	return q.snd.sendLocked(first.Content, files, store)
}
