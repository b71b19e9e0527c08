package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// Attachments. A user message's files are stored apart from the message
// (persist.Blob, in the message's transaction) and the stored message
// carries only references (refs.go), so the history, the REST pages and
// every replay stay small; the agent still gets every file whole.
// GET …/attachments/:id serves them (Attachment).

var (
	_ worker.FileSender       = (*Runtime)(nil)
	_ worker.AttachmentReader = (*Runtime)(nil)
)

// SendUserFiles is SendUser with attachments checked by attachment.Decode:
// the message is stored with its files (nil returned means both are on
// disk), then sent to the agent with the files after its text. content
// may be empty when files are not. when is resolved as Submit does; a
// queued message keeps its files (queuefiles.go).
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

// Attachment returns a stored attachment of this worker's log, or a file
// of a waiting queue item.
func (r *Runtime) Attachment(id string) (worker.Attachment, error) {
	meta, data, err := r.env.Store.Blob(r.env.Info.ID, id)
	if errors.Is(err, persist.ErrNotFound) {
		return r.q.attachment(id) // a file of a waiting item
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
