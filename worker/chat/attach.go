package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// Attachments. A user message's files are stored apart from the message
// (persist.Blob, in the message's transaction) and the stored message
// carries only references, so the history, the REST pages and every
// replay stay small; the CLI still gets every file whole, as content
// blocks. GET …/attachments/:id serves them (Attachment).

var (
	_ worker.FileSender       = (*Runtime)(nil)
	_ worker.AttachmentReader = (*Runtime)(nil)
)

// attachmentRef is a stored message's reference to an attachment; the
// same JSON is the blob's meta.
type attachmentRef struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	MediaType string `json:"mediaType"`
	Size      int    `json:"size"`
	URL       string `json:"url"`
}

// SendUserFiles is SendUser with attachments checked by attachment.Decode:
// the message is stored with its files (nil returned means both are on
// disk), then sent to the CLI with the files as content blocks after its
// text. content may be empty when files are not.
// when is resolved as Submit does; a queued message keeps its files
// (queuefiles.go).
func (r *Runtime) SendUserFiles(ctx context.Context, content, when string, files []attachment.File) error {
	when, err := r.resolveWhen(when)
	if err != nil {
		return err
	}
	if when == wire.WhenQueue {
		_, err := r.EnqueueFiles(ctx, content, nil, files)
		return err
	}
	return r.sendUser(ctx, content, files)
}

// attachmentRefs gives each file an id and returns the references for
// the message and the blobs to store.
func (r *Runtime) attachmentRefs(files []attachment.File) ([]attachmentRef, []persist.Blob) {
	if len(files) == 0 {
		return nil, nil
	}
	refs := make([]attachmentRef, len(files))
	blobs := make([]persist.Blob, len(files))
	for i, f := range files {
		refs[i] = r.newRef(f.Name, f.MediaType, len(f.Data))
		blobs[i] = persist.Blob{ID: refs[i].ID, Meta: mustJSON(refs[i]), Data: f.Data}
	}
	return refs, blobs
}

func (r *Runtime) newRef(name, mediaType string, size int) attachmentRef {
	id := uuid.Must(uuid.NewV7()).String()
	return attachmentRef{ID: id, Name: name, MediaType: mediaType, Size: size,
		URL: "/api/sessions/" + r.env.Session.ID + "/workers/" + r.env.Info.ID + "/attachments/" + id}
}

// Attachment returns a stored attachment of this worker's log.
func (r *Runtime) Attachment(id string) (worker.Attachment, error) {
	meta, data, err := r.env.Store.Blob(r.env.Info.ID, id)
	if errors.Is(err, persist.ErrNotFound) {
		return r.queuedAttachment(id) // a file of a waiting item
	}
	if err != nil {
		return worker.Attachment{}, fmt.Errorf("read attachment: %w", err)
	}
	var ref attachmentRef
	if err := json.Unmarshal(meta, &ref); err != nil {
		return worker.Attachment{}, fmt.Errorf("read attachment %s: %w", id, err)
	}
	return worker.Attachment{Name: ref.Name, MediaType: ref.MediaType, Data: data}, nil
}
