package chat

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// The durable queue of the chat (docs/api-extensions.md, "Queue"): user
// messages that wait for the running turn to end. It is stored per
// session (persist.UpdateQueue), so a new sdk worker after a switch to the
// terminal view and back finds it, and delivered by the worker that drives
// the conversation (deliver.go). Every change holds queue.mu from reading
// the stored queue to publishing its frame, so the stored order and the
// order of the frames the tabs get are one order.

// MaxQueueItems bounds a chat's queue.
const MaxQueueItems = 100

var _ worker.Queuer = (*Runtime)(nil)

// Submit takes a user message: now (SendUser: a turn, or a message into
// the running turn), or through the queue. when "" means queue while a
// turn runs or a permission request waits, now otherwise.
func (r *Runtime) Submit(ctx context.Context, content, when string) error {
	when, err := r.resolveWhen(when)
	if err != nil {
		return err
	}
	if when == wire.WhenNow {
		return r.SendUser(ctx, content)
	}
	_, err = r.Enqueue(ctx, content, nil)
	return err
}

// resolveWhen gives a message's "when" its default: "queue" while a turn
// runs, "now" otherwise.
func (r *Runtime) resolveWhen(when string) (string, error) {
	switch when {
	case "":
		if r.journal.busy() {
			return wire.WhenQueue, nil
		}
		return wire.WhenNow, nil
	case wire.WhenNow, wire.WhenQueue:
		return when, nil
	}
	return "", wire.FieldErrorf("when", "must be %q or %q", wire.WhenNow, wire.WhenQueue)
}

// Queue returns the queued items in delivery order.
func (r *Runtime) Queue() ([]wire.QueueItem, error) {
	items, err := r.env.Store.Queue(r.q.sid)
	if err != nil {
		return nil, fmt.Errorf("read queue: %w", err)
	}
	return r.apiItems(items), nil
}

// Enqueue adds a user message at the end of the queue. It is delivered
// when the chat is idle (at once when it is idle now), not before
// notBefore when that is set.
func (r *Runtime) Enqueue(ctx context.Context, content string, notBefore *time.Time) (wire.QueueItem, error) {
	return r.EnqueueFiles(ctx, content, notBefore, nil)
}

// EditQueued changes an item's content and/or moves it to position (0 is
// delivered next). An unknown id wraps worker.ErrNotFound; a position out
// of range is a field error.
func (r *Runtime) EditQueued(ctx context.Context, id string, content *string, position *int) (wire.QueueItem, error) {
	if content != nil {
		// Empty text is refused below for an item without files.
		if err := checkContent(*content, 1); err != nil {
			return wire.QueueItem{}, err
		}
	}
	var out persist.QueueItem
	err := r.q.update(r, func(items []persist.QueueItem) ([]persist.QueueItem, error) {
		i := indexOf(items, id)
		if i < 0 {
			return nil, fmt.Errorf("no queued message %s: %w", id, worker.ErrNotFound)
		}
		it := items[i]
		if content != nil {
			if err := checkContent(*content, len(it.Files)); err != nil {
				return nil, err
			}
			it.Content = *content // its files stay
		}
		items = slices.Delete(items, i, i+1)
		to := i
		if position != nil {
			if *position < 0 || *position > len(items) {
				return nil, wire.FieldErrorf("position", "must be from 0 to %d", len(items))
			}
			to = *position
		}
		out = it
		return slices.Insert(items, to, it), nil
	})
	if err != nil {
		return wire.QueueItem{}, err
	}
	return r.apiItem(out), nil
}

// RemoveQueued removes an item that is not delivered yet.
func (r *Runtime) RemoveQueued(ctx context.Context, id string) error {
	return r.q.update(r, func(items []persist.QueueItem) ([]persist.QueueItem, error) {
		i := indexOf(items, id)
		if i < 0 {
			return nil, fmt.Errorf("no queued message %s: %w", id, worker.ErrNotFound)
		}
		return slices.Delete(items, i, i+1), nil
	})
}

// update applies op to the stored queue, publishes the new queue to the
// tabs and wakes the delivery. A worker that no longer drives the
// conversation refuses: its queue belongs to the one that does.
func (q *queue) update(r *Runtime, op func([]persist.QueueItem) ([]persist.QueueItem, error)) error {
	return q.updateFiles(r, nil, op)
}

// updateFiles is update that also stores blobs, the files of the item op
// adds, in the same commit.
func (q *queue) updateFiles(r *Runtime, blobs []persist.Blob, op func([]persist.QueueItem) ([]persist.QueueItem, error)) error {
	if r.readOnly || r.isStopped() {
		return fmt.Errorf("this worker no longer drives the conversation: %w", worker.ErrNotRunning)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	var opErr error
	items, err := r.env.Store.UpdateQueueFiles(q.sid, blobs, func(items []persist.QueueItem) ([]persist.QueueItem, error) {
		next, err := op(slices.Clone(items))
		opErr = err
		return next, err
	})
	if opErr != nil {
		return opErr
	}
	if err != nil {
		return fmt.Errorf("store queue: %w", err)
	}
	// Wait for the publisher: once the change is answered, a tab that
	// attaches gets the new queue.
	if err := r.journal.produceCommitted([]entry{r.queueEntry(items)}); err != nil {
		r.log.Debug("queue frame after stop", "err", err)
	}
	q.release()
	q.poke()
	return nil
}

// queueEntry is the queue frame of items, for the journal.
func (r *Runtime) queueEntry(items []persist.QueueItem) entry {
	return entry{kind: kQueue, frame: wire.Queue(r.apiItems(items))}
}

func indexOf(items []persist.QueueItem, id string) int {
	return slices.IndexFunc(items, func(it persist.QueueItem) bool { return it.ID == id })
}
