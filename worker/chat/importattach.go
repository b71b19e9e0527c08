package chat

import (
	"bytes"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/persist"
)

// Attachments in imported history. The driver takes files its agent kept
// inline out of a message (agent.HistoryMessage.Files); the import stores
// them the way SendUserFiles stores an attachment: the bytes apart (a
// blob), the message with a reference in "attachments", so the history
// stays as small as one sent through agentdesk.

// withFiles adds the references of files to msg, as its last member
// "attachments", and returns the blobs to store with it.
func (r *Runtime) withFiles(msg []byte, files []attachment.File) ([]byte, []persist.Blob) {
	end := bytes.LastIndexByte(msg, '}')
	if len(files) == 0 || end < 0 {
		return msg, nil
	}
	refs, blobs := r.attachmentRefs(files)
	out := make([]byte, 0, end+len(`,"attachments":}`)+200*len(refs))
	out = append(out, msg[:end]...)
	if len(bytes.TrimSpace(msg[1:end])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"attachments":`...)
	out = append(out, mustJSON(refs)...)
	return append(out, '}'), blobs
}
