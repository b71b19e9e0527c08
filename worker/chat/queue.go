package chat

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
)

// The durable queue of the chat (docs/api-extensions.md, "Queue"): user
// messages that wait for the running turn to end. It is stored per
// session (persist.UpdateQueue), so a new chat worker after a switch to
// the terminal view and back finds it, and delivered by the worker that
// drives the conversation (deliver.go). Every change holds queue.mu from
// reading the stored queue to publishing its frame, so the stored order
// and the order of the frames the tabs get are one order.

// MaxQueueItems bounds a chat's queue.
const MaxQueueItems = 100

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

// queue is a worker's part of the session's queue: its changes, their
// frames, and the delivery (deliver.go). Safe for concurrent use.
type queue struct {
	store    *persist.Store
	sid      string   // the session whose queue it is
	refs     refMaker // the route that serves a waiting item's files
	j        *journal
	snd      *sender
	readOnly bool // a stopped worker: its queue belongs to the one that drives the conversation
	stopping <-chan struct{}
	imported <-chan struct{} // the delivery waits for the history import
	log      *slog.Logger
	clock    queueClock

	// mu orders the queue's changes and deliveries with the frames they
	// publish (queueedit.go).
	mu sync.Mutex

	life   sync.Mutex  // guards the fields below
	halted bool        // Stop began (halt; stopping closes right after)
	held   bool        // a delivery failed: wait for the person
	stopT  func() bool // the armed notBefore timer, nil when none
	runner coalescer
	wg     sync.WaitGroup // the delivery goroutine
}

func (q *queue) init() *queue {
	q.clock = wallQueueClock{}
	return q
}

// items returns the queued items in delivery order, as the API shows
// them.
func (q *queue) items() ([]wire.QueueItem, error) {
	items, err := q.store.Queue(q.sid)
	if err != nil {
		return nil, fmt.Errorf("read queue: %w", err)
	}
	return q.apiItems(items), nil
}

// frame returns the stored queue's frame, for the journal to send on
// attach before any change was published; nil for an empty queue (a tab
// starts with none).
func (q *queue) frame() []byte {
	items, err := q.store.Queue(q.sid)
	if err != nil {
		q.log.Error("read queue", "err", err)
		return nil
	}
	if len(items) == 0 {
		return nil
	}
	return q.entry(items).frame
}

// entry is the queue frame of items, for the journal.
func (q *queue) entry(items []persist.QueueItem) entry {
	return entry{kind: kQueue, frame: wire.Queue(q.apiItems(items))}
}

// apiItem is an item as the API shows it; its files are served by this
// worker's attachment route while it waits.
func (q *queue) apiItem(it persist.QueueItem) wire.QueueItem {
	out := wire.QueueItem{ID: it.ID, Content: it.Content, CreatedAt: it.CreatedAt, NotBefore: it.NotBefore}
	for _, f := range it.Files {
		out.Attachments = append(out.Attachments, wire.QueueAttachment{ID: f.ID, Name: f.Name, MediaType: f.MediaType, Size: f.Size,
			URL: q.refs.url(f.ID)})
	}
	return out
}

func (q *queue) apiItems(items []persist.QueueItem) []wire.QueueItem {
	out := make([]wire.QueueItem, len(items))
	for i, it := range items {
		out[i] = q.apiItem(it)
	}
	return out
}

func indexOf(items []persist.QueueItem, id string) int {
	return slices.IndexFunc(items, func(it persist.QueueItem) bool { return it.ID == id })
}
