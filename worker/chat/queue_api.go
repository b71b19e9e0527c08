package chat

import (
	"context"
	"time"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// The queue's abilities (queue.go has the rules).

var (
	_ worker.Queuer     = (*Runtime)(nil)
	_ worker.FileQueuer = (*Runtime)(nil)
)

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
func (r *Runtime) Queue() ([]wire.QueueItem, error) { return r.q.items() }

// Enqueue adds a user message at the end of the queue. It is delivered
// when the chat is idle (at once when it is idle now), not before
// notBefore when that is set.
func (r *Runtime) Enqueue(ctx context.Context, content string, notBefore *time.Time) (wire.QueueItem, error) {
	return r.EnqueueFiles(ctx, content, notBefore, nil)
}

// EnqueueFiles is Enqueue with attachments checked by attachment.Decode:
// nil returned means the item and its files are on disk.
func (r *Runtime) EnqueueFiles(ctx context.Context, content string, notBefore *time.Time, files []attachment.File) (wire.QueueItem, error) {
	return r.q.add(content, notBefore, files)
}

// EditQueued changes an item's content and/or moves it to position (0 is
// delivered next). An unknown id wraps worker.ErrNotFound; a position out
// of range is a field error.
func (r *Runtime) EditQueued(ctx context.Context, id string, content *string, position *int) (wire.QueueItem, error) {
	return r.q.edit(id, content, position)
}

// RemoveQueued removes an item that is not delivered yet.
func (r *Runtime) RemoveQueued(ctx context.Context, id string) error { return r.q.remove(id) }
