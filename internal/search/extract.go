package search

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/internal/jsonscan"
)

// maxText bounds the text indexed of one message: a pasted log of megabytes
// would cost the index much and help a search little.
const maxText = 32 << 10

// maxFrame is the largest stored frame that is read for text: larger ones
// are tool results and file contents, not conversation.
const maxFrame = 4 << 20

// storedFrame is the part of a stored sdk-message frame the index reads.
type storedFrame struct {
	Message struct {
		Type      string `json:"type"`
		UUID      string `json:"uuid"`
		Timestamp string `json:"timestamp"`
		Message   struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	} `json:"message"`
}

type block struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Name  string `json:"name"`
	Input struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Path     string `json:"path"`
		Pattern  string `json:"pattern"`
	} `json:"input"`
}

// extracted is what a message contributes to the index.
type extracted struct {
	role, uuid, text string
	at               time.Time
}

// extract reads a stored frame. ok is false for what is not indexed: other
// frame types, tool results, thinking (hidden in the chat by default), and
// messages with no text.
func extract(frame []byte) (extracted, bool) {
	if len(frame) > maxFrame {
		return extracted{}, false
	}
	if sc, ok := scanFrame(frame); ok {
		return fromScan(sc)
	}
	return extractSlow(frame)
}

// fromScan is extract's decision on what scanFrame read.
func fromScan(sc scanned) (extracted, bool) {
	typ, _ := jsonscanString(sc.typ)
	if typ != "user" && typ != "assistant" || sc.text == "" {
		return extracted{}, false
	}
	uuid, _ := jsonscanString(sc.uuid)
	ts, _ := jsonscanString(sc.timestamp)
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		at = time.Time{} // the indexer stamps it
	}
	return extracted{role: typ, uuid: uuid, text: sc.text, at: at}, true
}

// jsonscanString is the string a raw value holds; "" when it is missing.
func jsonscanString(raw []byte) (string, bool) {
	if raw == nil {
		return "", true
	}
	return jsonscan.Unquote(raw)
}

// extractSlow is extract with encoding/json, for the frames scanFrame
// leaves to it.
func extractSlow(frame []byte) (extracted, bool) {
	var f storedFrame
	if json.Unmarshal(frame, &f) != nil {
		return extracted{}, false
	}
	m := f.Message
	if m.Type != "user" && m.Type != "assistant" {
		return extracted{}, false
	}
	text := contentText(m.Message.Content)
	if text == "" {
		return extracted{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, m.Timestamp)
	if err != nil {
		at = time.Time{} // the indexer stamps it
	}
	return extracted{role: m.Type, uuid: m.UUID, text: text, at: at}, true
}

// contentText joins the searchable parts of a message's content: a plain
// string, text blocks, and each tool_use's name with its command or path.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return clip(s)
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var b strings.Builder
	for _, bl := range blocks {
		for _, part := range blockParts(bl) {
			if part == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(part)
		}
		if b.Len() >= maxText {
			break
		}
	}
	return clip(b.String())
}

func blockParts(bl block) []string {
	switch bl.Type {
	case "text":
		return []string{bl.Text}
	case "tool_use":
		in := bl.Input
		return []string{bl.Name, in.Command, in.FilePath, in.Path, in.Pattern}
	}
	return nil
}

// clip cuts s to maxText bytes on a rune boundary.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
