package chat

import (
	"errors"
	"fmt"
	"slices"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// Queued messages with attachments (docs/api-extensions.md, "Queue"). The
// files are checked as a direct send's are (attachment.Decode, at the
// edge), stored in the commit that adds the item (persist.UpdateQueueFiles)
// and referred to by it; the delivery reads them back and sends them as a
// direct send does (sendLocked), and its commit stores them with the
// message and drops the queued copies (persist: a queue's write collects
// the files no item refers to).

// MaxQueueFiles bounds the bytes of all files waiting in one chat's
// queue, so a queue of MaxQueueItems messages cannot hold 100 times
// attachment.MaxTotal.
const MaxQueueFiles = 100 << 20

// maxQueueFiles is MaxQueueFiles; tests lower it.
var maxQueueFiles = MaxQueueFiles

func queuedBytes(items []persist.QueueItem) int {
	n := 0
	for _, it := range items {
		for _, f := range it.Files {
			n += f.Size
		}
	}
	return n
}

// files reads an item's files back for its delivery. A file gone (the
// item was removed meanwhile) is persist.ErrChanged: the delivery looks
// at the queue again.
func (q *queue) files(it persist.QueueItem) ([]attachment.File, error) {
	files := make([]attachment.File, 0, len(it.Files))
	for _, f := range it.Files {
		data, err := q.store.QueueFile(q.sid, f.ID)
		if errors.Is(err, persist.ErrNotFound) {
			return nil, fmt.Errorf("queued file %s: %w", f.ID, persist.ErrChanged)
		}
		if err != nil {
			return nil, err
		}
		files = append(files, attachment.File{Name: f.Name, MediaType: f.MediaType, Kind: attachment.KindOf(f.MediaType), Data: data})
	}
	return files, nil
}

// attachment serves a file of a waiting item (for the item's thumbnail);
// ErrNotFound when no item holds id.
func (q *queue) attachment(id string) (worker.Attachment, error) {
	items, err := q.store.Queue(q.sid)
	if err != nil {
		return worker.Attachment{}, fmt.Errorf("read queue: %w", err)
	}
	for _, it := range items {
		i := slices.IndexFunc(it.Files, func(f persist.QueueFile) bool { return f.ID == id })
		if i < 0 {
			continue
		}
		data, err := q.store.QueueFile(q.sid, id)
		if err != nil {
			return worker.Attachment{}, fmt.Errorf("read queued file: %w", err)
		}
		return worker.Attachment{Name: it.Files[i].Name, MediaType: it.Files[i].MediaType, Data: data}, nil
	}
	return worker.Attachment{}, fmt.Errorf("no attachment %q in this worker: %w", id, worker.ErrNotFound)
}
