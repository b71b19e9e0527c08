package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
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

var _ worker.FileQueuer = (*Runtime)(nil)

// EnqueueFiles is Enqueue with attachments checked by attachment.Decode:
// nil returned means the item and its files are on disk.
func (r *Runtime) EnqueueFiles(ctx context.Context, content string, notBefore *time.Time, files []attachment.File) (wire.QueueItem, error) {
	if err := checkContent(content, len(files)); err != nil {
		return wire.QueueItem{}, err
	}
	it := persist.QueueItem{ID: uuid.Must(uuid.NewV7()).String(), Content: content, CreatedAt: r.q.clock.Now().UTC()}
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
	err := r.q.updateFiles(r, blobs, func(items []persist.QueueItem) ([]persist.QueueItem, error) {
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
	return r.apiItem(it), nil
}

func queuedBytes(items []persist.QueueItem) int {
	n := 0
	for _, it := range items {
		for _, f := range it.Files {
			n += f.Size
		}
	}
	return n
}

// queuedFiles reads an item's files back for its delivery. A file gone
// (the item was removed meanwhile) is persist.ErrChanged: the delivery
// looks at the queue again.
func (r *Runtime) queuedFiles(it persist.QueueItem) ([]attachment.File, error) {
	files := make([]attachment.File, 0, len(it.Files))
	for _, f := range it.Files {
		data, err := r.env.Store.QueueFile(r.q.sid, f.ID)
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

// queuedAttachment serves a file of a waiting item (Attachment, for the
// item's thumbnail); ErrNotFound when no item holds id.
func (r *Runtime) queuedAttachment(id string) (worker.Attachment, error) {
	items, err := r.env.Store.Queue(r.q.sid)
	if err != nil {
		return worker.Attachment{}, fmt.Errorf("read queue: %w", err)
	}
	for _, it := range items {
		i := slices.IndexFunc(it.Files, func(f persist.QueueFile) bool { return f.ID == id })
		if i < 0 {
			continue
		}
		data, err := r.env.Store.QueueFile(r.q.sid, id)
		if err != nil {
			return worker.Attachment{}, fmt.Errorf("read queued file: %w", err)
		}
		return worker.Attachment{Name: it.Files[i].Name, MediaType: it.Files[i].MediaType, Data: data}, nil
	}
	return worker.Attachment{}, fmt.Errorf("no attachment %q in this worker: %w", id, worker.ErrNotFound)
}

// apiItem is an item as the API shows it; its files are served by this
// worker's attachment route while it waits.
func (r *Runtime) apiItem(it persist.QueueItem) wire.QueueItem {
	out := wire.QueueItem{ID: it.ID, Content: it.Content, CreatedAt: it.CreatedAt, NotBefore: it.NotBefore}
	for _, f := range it.Files {
		out.Attachments = append(out.Attachments, wire.QueueAttachment{ID: f.ID, Name: f.Name, MediaType: f.MediaType, Size: f.Size,
			URL: "/api/sessions/" + r.env.Session.ID + "/workers/" + r.env.Info.ID + "/attachments/" + f.ID})
	}
	return out
}

func (r *Runtime) apiItems(items []persist.QueueItem) []wire.QueueItem {
	out := make([]wire.QueueItem, len(items))
	for i, it := range items {
		out[i] = r.apiItem(it)
	}
	return out
}
