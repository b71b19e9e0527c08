package chat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/persist"
)

// Attachments in imported history. The CLI keeps an image or a document
// sent in a user message inline in its session file, as base64 (recorded
// in testdata/attach/session.jsonl). The import stores such a block the
// way SendUserFiles stores an attachment: the bytes apart (a blob), the
// message with a reference in "attachments" and without the block, so
// the history stays as small as one sent through agentdesk. Images in tool
// results are left as they are.

// fileBlock is an image or document block of a user message.
type fileBlock struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// externalise takes a user message's image and document blocks out of
// it. It returns msg unchanged (and no refs) when it has none or is not
// shaped as expected.
func (r *Runtime) externalise(msg json.RawMessage) (json.RawMessage, []attachmentRef, []persist.Blob) {
	if !bytes.Contains(msg, []byte(`"source"`)) {
		return msg, nil, nil
	}
	var m map[string]json.RawMessage
	var blocks []json.RawMessage
	if json.Unmarshal(msg, &m) != nil || json.Unmarshal(m["content"], &blocks) != nil {
		return msg, nil, nil
	}
	var refs []attachmentRef
	var blobs []persist.Blob
	kept := make([]json.RawMessage, 0, len(blocks))
	for _, raw := range blocks {
		name, mt, data, ok := fileOf(raw, len(refs))
		if !ok {
			kept = append(kept, raw)
			continue
		}
		ref := r.newRef(name, mt, len(data))
		refs = append(refs, ref)
		blobs = append(blobs, persist.Blob{ID: ref.ID, Meta: mustJSON(ref), Data: data})
	}
	if len(refs) == 0 {
		return msg, nil, nil
	}
	m["content"] = mustJSON(kept)
	return mustJSON(m), refs, blobs
}

// fileOf decodes an image or document block: base64 images and PDFs, text
// documents. n numbers the names of images, which have none.
func fileOf(raw json.RawMessage, n int) (name, mediaType string, data []byte, ok bool) {
	var b fileBlock
	if json.Unmarshal(raw, &b) != nil || b.Source == nil || (b.Type != "image" && b.Type != "document") {
		return "", "", nil, false
	}
	switch b.Source.Type {
	case "base64":
		d, err := base64.StdEncoding.DecodeString(b.Source.Data)
		if err != nil || len(d) == 0 {
			return "", "", nil, false
		}
		data = d
	case "text":
		data = []byte(b.Source.Data)
	default:
		return "", "", nil, false
	}
	name = b.Title
	if name == "" {
		name = fmt.Sprintf("%s-%d%s", b.Type, n+1, extOf(b.Source.MediaType))
	}
	return name, b.Source.MediaType, data, true
}

func extOf(mediaType string) string {
	switch mediaType {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "application/pdf":
		return ".pdf"
	}
	return ".txt"
}
