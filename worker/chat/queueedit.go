package chat

import (
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// update applies op to the stored queue, publishes the new queue to the
// tabs and wakes the delivery. A worker that no longer drives the
// conversation refuses: its queue belongs to the one that does.
func (q *queue) update(op func([]persist.QueueItem) ([]persist.QueueItem, error)) error {
	return q.updateFiles(nil, op)
}

// updateFiles is update that also stores blobs, the files of the item op
// adds, in the same commit.
func (q *queue) updateFiles(blobs []persist.Blob, op func([]persist.QueueItem) ([]persist.QueueItem, error)) error {
	if q.readOnly || isClosed(q.stopping) {
		return errReadOnly
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	var opErr error
	items, err := q.store.UpdateQueueFiles(q.sid, blobs, func(items []persist.QueueItem) ([]persist.QueueItem, error) {
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
	if err := q.j.produceCommitted([]entry{q.entry(items)}); err != nil {
		q.log.Debug("queue frame after stop", "err", err)
	}
	q.release()
	q.poke()
	return nil
}

// add puts a user message with its files (checked by attachment.Decode) at
// the end of the queue.
func (q *queue) add(content string, notBefore *time.Time, files []attachment.File) (wire.QueueItem, error) {
	if err := checkContent(content, len(files)); err != nil {
		return wire.QueueItem{}, err
	}
	it := persist.QueueItem{ID: uuid.Must(uuid.NewV7()).String(), Content: content, CreatedAt: q.clock.Now().UTC()}
	if notBefore != nil {
		nb := notBefore.UTC()
		it.NotBefore = &nb
	}
	blobs := make([]persist.Blob, len(files))
	for i, f := range files {
		ref := persist.QueueFile{ID: uuid.Must(uuid.NewV7()).String(), Name: f.Name, MediaType: f.MediaType, Size: len(f.Data)}
		it.Files = append(it.Files, ref)
		blobs[i] = persist.Blob{ID: ref.ID, Meta: mustJSON(ref), Data: f.Data}
	}
	err := q.updateFiles(blobs, func(items []persist.QueueItem) ([]persist.QueueItem, error) {
		if len(items) >= MaxQueueItems {
			return nil, fmt.Errorf("the queue holds %d messages already, the most it takes: %w", MaxQueueItems, worker.ErrConflict)
		}
		if queuedBytes(items)+queuedBytes([]persist.QueueItem{it}) > maxQueueFiles {
			return nil, &wire.CodeError{Code: wire.CodeTooLarge, Err: fmt.Errorf(
				"the queue may hold %d MiB of attachments; send or remove queued messages first", MaxQueueFiles>>20)}
		}
		return append(items, it), nil
	})
	if err != nil {
		return wire.QueueItem{}, err
	}
	return q.apiItem(it), nil
}

// edit changes an item's content and/or moves it to position (0 is
// delivered next).
func (q *queue) edit(id string, content *string, position *int) (wire.QueueItem, error) {
	if content != nil {
		// Empty text is refused below for an item without files.
		if err := checkContent(*content, 1); err != nil {
			return wire.QueueItem{}, err
		}
	}
	var out persist.QueueItem
	err := q.update(func(items []persist.QueueItem) ([]persist.QueueItem, error) {
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
	return q.apiItem(out), nil
}

// remove removes an item that is not delivered yet.
func (q *queue) remove(id string) error {
	return q.update(func(items []persist.QueueItem) ([]persist.QueueItem, error) {
		i := indexOf(items, id)
		if i < 0 {
			return nil, fmt.Errorf("no queued message %s: %w", id, worker.ErrNotFound)
		}
		return slices.Delete(items, i, i+1), nil
	})
}
