package chat

import (
	"github.com/google/uuid"

	attachment "github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/persist"
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

// refMaker names the attachments of one worker: its route serves them.
type refMaker struct{ sid, wid string }

// url is where GET …/attachments/:id serves the attachment id.
func (m refMaker) url(id string) string {
	return "/api/sessions/" + m.sid + "/workers/" + m.wid + "/attachments/" + id
}

// refs gives each file an id and returns the references for the message
// and the blobs to store.
func (m refMaker) refs(files []attachment.File) ([]attachmentRef, []persist.Blob) {
	if len(files) == 0 {
		return nil, nil
	}
	refs := make([]attachmentRef, len(files))
	blobs := make([]persist.Blob, len(files))
	for i, f := range files {
		id := uuid.Must(uuid.NewV7()).String()
		refs[i] = attachmentRef{ID: id, Name: f.Name, MediaType: f.MediaType, Size: len(f.Data), URL: m.url(id)}
		blobs[i] = persist.Blob{ID: id, Meta: mustJSON(refs[i]), Data: f.Data}
	}
	return refs, blobs
}
