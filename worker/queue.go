package worker

import (
	"context"
	"time"

	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// Queuer is an agent runtime with a durable queue of user messages, which
// it delivers one per turn (…/queue routes, "when" on …/input). Every
// method that changes the queue returns once the change is committed.
type Queuer interface {
	// Submit takes a user message: when is wire.WhenNow, wire.WhenQueue or
	// "" (queue while a turn runs, now when idle).
	Submit(ctx context.Context, content, when string) error
	Queue() ([]wire.QueueItem, error)
	Enqueue(ctx context.Context, content string, notBefore *time.Time) (wire.QueueItem, error)
	// EditQueued changes an item's content, its position (0 is the next
	// delivered), or both; nil leaves that part alone.
	EditQueued(ctx context.Context, id string, content *string, position *int) (wire.QueueItem, error)
	RemoveQueued(ctx context.Context, id string) error
}

// FileQueuer is a Queuer whose items may hold attachments, checked by
// attach.Decode (POST …/queue with "attachments").
type FileQueuer interface {
	EnqueueFiles(ctx context.Context, content string, notBefore *time.Time, files []attach.File) (wire.QueueItem, error)
}

// Submit delivers a user message to a worker the way POST …/input does:
// through the queue's rules ("when") for a worker that has a queue; a
// worker without one takes "now" only.
func Submit(ctx context.Context, in Inputter, content, when string) error {
	if q, ok := in.(Queuer); ok {
		return q.Submit(ctx, content, when)
	}
	if when != "" && when != wire.WhenNow {
		return wire.FieldErrorf("when", "this worker has no queue: only %q is possible", wire.WhenNow)
	}
	return in.SendUser(ctx, content)
}
