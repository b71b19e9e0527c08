package persist

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The queue of a session's chat: the user messages waiting for the running
// turn to end, in delivery order. The top-level bucket "queues" (created on
// first use) maps a session id to the JSON array of its items. It is kept
// per session, not per worker, because the conversation outlives its
// workers: a switch to the terminal view and back makes a new sdk worker,
// which finds the same queue.
var bQueues = []byte("queues")

// QueueItem is one queued user message.
type QueueItem struct {
	ID        string     `json:"id"`
	Content   string     `json:"content"`
	CreatedAt time.Time  `json:"createdAt"`
	NotBefore *time.Time `json:"notBefore,omitempty"`
	// Files are the item's attachments (queuefiles.go).
	Files []QueueFile `json:"files,omitempty"`
}

var (
	// ErrChanged means a queue item to deliver is no longer the first of
	// its queue, or no longer has the content the caller delivers.
	ErrChanged = errors.New("queue item changed")
	// ErrAborted wraps the error an UpdateQueue function returned: nothing
	// was written.
	ErrAborted = errors.New("queue update aborted")
)

// Queue returns the queue of session sid, oldest delivery first; empty
// when it has none.
func (s *Store) Queue(sid string) ([]QueueItem, error) {
	var items []QueueItem
	err := s.w.view(func(tx *bolt.Tx) error {
		var err error
		items, err = readQueue(tx, []byte(sid))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("queue of %s: %w", sid, err)
	}
	return items, nil
}

// UpdateQueue replaces the queue of session sid with what fn returns for
// the stored one, in one transaction, and returns the new queue once it is
// committed. An error from fn writes nothing and is returned wrapped with
// ErrAborted. fn runs on the store's writer: it must be quick and must not
// call the store.
func (s *Store) UpdateQueue(sid string, fn func([]QueueItem) ([]QueueItem, error)) ([]QueueItem, error) {
	return s.updateQueue(sid, nil, fn)
}

// updateQueue is UpdateQueue that runs before (when set) in the same
// transaction, after fn and before the queue is written.
func (s *Store) updateQueue(sid string, before func(*wtx) error, fn func([]QueueItem) ([]QueueItem, error)) ([]QueueItem, error) {
	if sid == "" {
		return nil, fmt.Errorf("update queue: %w", ErrInvalid)
	}
	var out []QueueItem
	err := s.w.do(func(w *wtx) error {
		items, err := readQueue(w.tx, []byte(sid))
		if err != nil {
			return err
		}
		next, err := fn(items)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrAborted, err)
		}
		if before != nil {
			if err := before(w); err != nil {
				return err
			}
		}
		out = next
		return w.putQueue([]byte(sid), next)
	})
	if err != nil {
		return nil, fmt.Errorf("update queue of %s: %w", sid, err)
	}
	return out, nil
}

// AppendMessagesDequeue is AppendMessages that also removes item id, which
// must be the first item of session sid's queue with exactly content, in
// the same transaction: the item becomes a stored user message once and
// only once, whatever crashes. When the item is not first or its content
// changed, nothing is written and the channel gets an error wrapping
// ErrChanged.
func (s *Store) AppendMessagesDequeue(workerID string, msgs []Message, sid, id, content string) <-chan error {
	recs, size, err := encodeMessages(workerID, msgs)
	if err != nil || len(recs) == 0 {
		return done(fmt.Errorf("append messages of %s: %w", workerID, errors.Join(err, ErrInvalid)))
	}
	return s.w.enqueue(&op{size: size, apply: func(w *wtx) error {
		items, err := readQueue(w.tx, []byte(sid))
		if err != nil {
			return err
		}
		if len(items) == 0 || items[0].ID != id || items[0].Content != content {
			return fmt.Errorf("deliver queue item %s of %s: %w", id, sid, ErrChanged)
		}
		if err := w.appendMessages([]byte(workerID), recs); err != nil {
			return fmt.Errorf("append messages of %s: %w", workerID, err)
		}
		return w.putQueue([]byte(sid), items[1:])
	}})
}

func readQueue(tx *bolt.Tx, sid []byte) ([]QueueItem, error) {
	b := tx.Bucket(bQueues)
	if b == nil {
		return nil, nil
	}
	v := b.Get(sid)
	if v == nil {
		return nil, nil
	}
	var items []QueueItem
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("decode queue: %w", err)
	}
	return items, nil
}

// putQueue stores items as sid's queue; an empty queue is deleted.
func (w *wtx) putQueue(sid []byte, items []QueueItem) error {
	b, err := w.tx.CreateBucketIfNotExists(bQueues)
	if err != nil {
		return fmt.Errorf("create queues bucket: %w", err)
	}
	if err := w.collectQueueFiles(sid, items); err != nil {
		return err
	}
	if len(items) == 0 {
		return b.Delete(sid)
	}
	v, err := json.Marshal(items)
	if err != nil {
		return fmt.Errorf("encode queue: %w", err)
	}
	return b.Put(sid, v)
}

// deleteQueue drops sid's queue with its session.
func (w *wtx) deleteQueue(sid []byte) error {
	if err := w.collectQueueFiles(sid, nil); err != nil {
		return err
	}
	if b := w.tx.Bucket(bQueues); b != nil {
		return b.Delete(sid)
	}
	return nil
}
