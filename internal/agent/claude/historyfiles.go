package claude

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/attach"
)

// Attachments in a session file. The CLI keeps an image or a document sent
// in a user message inline, as base64 (recorded in
// worker/chat/testdata/attach/session.jsonl). The history hands such a
// block to the engine as a file, and the message without it: the engine
// stores it the way it stores an attachment sent through agentdesk (a
// blob, and a reference in "attachments"), so the history stays as small.
// Images in tool results are left as they are.

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

// takeFiles takes a user message's image and document blocks out of it.
// It returns msg unchanged (and no files) when it has none or is not
// shaped as expected.
func takeFiles(msg json.RawMessage) (json.RawMessage, []attach.File) {
	if !bytes.Contains(msg, []byte(`"source"`)) {
		return msg, nil
	}
	var m map[string]json.RawMessage
	var blocks []json.RawMessage
	if json.Unmarshal(msg, &m) != nil || json.Unmarshal(m["content"], &blocks) != nil {
		return msg, nil
	}
	var files []attach.File
	kept := make([]json.RawMessage, 0, len(blocks))
	for _, raw := range blocks {
		name, mt, data, ok := fileOf(raw, len(files))
		if !ok {
			kept = append(kept, raw)
			continue
		}
		files = append(files, attach.File{Name: name, MediaType: mt, Kind: attach.KindOf(mt), Data: data})
	}
	if len(files) == 0 {
		return msg, nil
	}
	m["content"] = mustJSON(kept)
	return mustJSON(m), files
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

// mustJSON marshals decoded JSON values again, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("claude: marshal: %v", err)) // decoded values: a bug
	}
	return b
}
