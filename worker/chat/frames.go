package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// framePrefix starts every sdk-message frame. It is fixed so that Messages
// can turn a stored frame into a REST element by slicing it off. The frame
// is built here rather than in internal/wire because it is built around a
// message in its own buffer (wrapFrame), which may be 30 MB.
const framePrefix = `{"type":"` + wire.TypeSDKMessage + `",`

// htmlTruncatedField marks a frame whose html leaves out text blocks that
// were too long to render (see maxHTMLText).
const htmlTruncatedField = `,"htmlTruncated":true`

// sdkFrame builds {"type":"sdk-message","seq":N,"message":msg[,"html":html]
// [,"htmlTruncated":true]} in one allocation. msg and html must be valid
// JSON.
func sdkFrame(seq uint64, msg, html []byte, htmlTruncated bool) []byte {
	b := make([]byte, 0, len(framePrefix)+len(htmlTruncatedField)+40+len(msg)+len(html))
	b = frameHead(b, seq)
	b = append(b, msg...)
	if len(html) > 0 {
		b = append(b, `,"html":`...)
		b = append(b, html...)
	}
	return frameTail(b, htmlTruncated)
}

// frameHead appends what precedes the message in a frame.
func frameHead(b []byte, seq uint64) []byte {
	b = append(b, framePrefix...)
	b = append(b, `"seq":`...)
	b = strconv.AppendUint(b, seq, 10)
	return append(b, `,"message":`...)
}

// frameTail appends what follows the message (and html) in a frame.
func frameTail(b []byte, htmlTruncated bool) []byte {
	if htmlTruncated {
		b = append(b, htmlTruncatedField...)
	}
	return append(b, '}')
}

// wrapRoom is room enough for a frame's head or tail (frameHead is at
// most 55 bytes).
const wrapRoom = 64

// wrapFrame is sdkFrame for a message without html, built around msg in
// its own buffer when the driver left room (agent.Event.Wrap: a message
// over 64 KiB), so a tool result of 30 MB is not copied once more.
func wrapFrame(seq uint64, msg []byte, wrap func(head, tail []byte) ([]byte, bool), htmlTruncated bool) []byte {
	var head, tail [wrapRoom]byte
	if f, ok := wrap(frameHead(head[:0], seq), frameTail(tail[:0], htmlTruncated)); ok {
		return f
	}
	return sdkFrame(seq, msg, nil, htmlTruncated)
}

// restElement turns a stored frame into a REST messages element: the same
// object without "type".
func restElement(frame []byte) (json.RawMessage, error) {
	if bytes.HasPrefix(frame, []byte(framePrefix)) {
		out := make([]byte, 0, len(frame)-len(framePrefix)+1)
		out = append(out, '{')
		return append(out, frame[len(framePrefix):]...), nil
	}
	// Not written by this package's sdkFrame: take the slow way.
	var m map[string]json.RawMessage
	if err := json.Unmarshal(frame, &m); err != nil {
		return nil, fmt.Errorf("decode stored frame: %w", err)
	}
	delete(m, "type")
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode message: %w", err)
	}
	return b, nil
}

// withUUID returns the message with "uuid" set to id: appended when the
// line has none, replaced (by a re-encode) when it has one.
func withUUID(raw []byte, id string, had bool) ([]byte, error) {
	if had {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("decode line: %w", err)
		}
		m["uuid"], _ = json.Marshal(id)
		return json.Marshal(m)
	}
	end := bytes.LastIndexByte(raw, '}')
	if end < 0 {
		return nil, fmt.Errorf("line is not a JSON object")
	}
	b := make([]byte, 0, len(raw)+len(id)+12)
	b = append(b, raw[:end]...)
	if len(bytes.TrimSpace(raw[1:end])) > 0 {
		b = append(b, ',')
	}
	b = append(b, `"uuid":"`...)
	b = append(b, id...)
	return append(b, `"}`...), nil
}

// assistantLine is the part of an assistant line that holds markdown.
type assistantLine struct {
	Message struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"message"`
}

// maxSlowRender bounds the lines renderHTML decodes with encoding/json when
// textBlocks cannot: that decode costs several times the line.
const maxSlowRender = 4 * maxHTMLText

// renderHTML returns {"<content index>":"<html>"} for the text blocks of
// an assistant line, or nil when it has none, and whether it left blocks
// out (maxHTMLText). The bytes are those of json.Marshal of a
// map[string]string.
func renderHTML(raw []byte) (html []byte, truncated bool, err error) {
	// A text block holds the string "text" (its type), however the JSON is
	// spaced; tool_use and thinking lines usually do not, and skip the
	// decode.
	if !bytes.Contains(raw, []byte(`"text"`)) {
		return nil, false, nil
	}
	blocks, ok := textBlocks(raw)
	if !ok {
		if len(raw) > maxSlowRender {
			return nil, true, nil
		}
		if blocks, err = decodeTextBlocks(raw); err != nil {
			return nil, false, err
		}
	}
	blocks, truncated = withinBudget(blocks)
	if len(blocks) == 0 {
		return nil, truncated, nil
	}
	html, err = blocksHTML(blocks)
	return html, truncated, err
}

// withinBudget keeps the blocks, in content order, whose text fits in
// what maxHTMLText leaves, and reports whether it dropped any.
func withinBudget(blocks []textBlock) ([]textBlock, bool) {
	left, dropped := maxHTMLText, false
	out := blocks[:0]
	for _, c := range blocks {
		if c.big || len(c.text) > left {
			dropped = true
			continue
		}
		left -= len(c.text)
		out = append(out, c)
	}
	return out, dropped
}

// blocksHTML renders blocks into the html object.
func blocksHTML(blocks []textBlock) ([]byte, error) {
	// Map keys are marshalled in string order ("10" before "2").
	keys := make([]string, len(blocks))
	for i, c := range blocks {
		keys[i] = strconv.Itoa(c.index)
	}
	if len(blocks) > 1 {
		slices.SortFunc(blocks, func(a, b textBlock) int {
			return strings.Compare(strconv.Itoa(a.index), strconv.Itoa(b.index))
		})
		slices.Sort(keys)
	}
	out := []byte{'{'}
	for i, c := range blocks {
		h, err := markdown.Render(c.text)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(h)
		if err != nil {
			return nil, fmt.Errorf("encode html: %w", err)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, keys[i]...)
		out = append(out, '"', ':')
		out = append(out, v...)
	}
	return append(out, '}'), nil
}

// decodeTextBlocks is the slow, general way to textBlocks' answer.
func decodeTextBlocks(raw []byte) ([]textBlock, error) {
	var a assistantLine
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decode assistant line: %w", err)
	}
	var blocks []textBlock
	for i, c := range a.Message.Content {
		if c.Type == "text" && c.Text != "" {
			blocks = append(blocks, newTextBlock(i, c.Text))
		}
	}
	return blocks, nil
}

// userLine is the user message agentdesk stores for what a person typed,
// shaped like the agent's own user messages (API.md's format).
type userLine struct {
	Type    string `json:"type"`
	Message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"message"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
	Timestamp string `json:"timestamp"`
	// Attachments refer to the files sent with the message, stored apart
	// (attach.go).
	Attachments []attachmentRef `json:"attachments,omitempty"`
}

// userHTML renders what a person typed with the same sanitizing markdown
// renderer as the assistant's text, as {"0":"<html>"} like an assistant
// line's html (the message has one content string, index 0). A render
// error leaves the message without html: the client shows the text.
func userHTML(content string) []byte {
	h, err := markdown.Render(content)
	if err != nil || h == "" {
		return nil
	}
	return mustJSON(map[string]string{"0": h})
}

func userMessage(content, id, sessionID string, now time.Time, refs []attachmentRef) []byte {
	u := userLine{Type: "user", UUID: id, SessionID: sessionID, Timestamp: now.UTC().Format(time.RFC3339Nano), Attachments: refs}
	u.Message.Role, u.Message.Content = "user", content
	b, _ := json.Marshal(u) // only strings: cannot fail
	return b
}
