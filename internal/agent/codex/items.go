package codex

import (
	"encoding/json"
	"strings"
)

// stream is an item whose text comes in deltas: an agent message (a text
// block) or reasoning (a thinking block).
type stream struct {
	id    string
	block string // text or thinking
	text  strings.Builder
}

// itemParams are the params of item/started and item/completed.
type itemParams struct {
	Item json.RawMessage `json:"item"`
}

// itemHead is what every item has.
type itemHead struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

func (t *Translator) itemStarted(raw json.RawMessage) []Out {
	item := params[itemParams](raw).Item
	h := params[itemHead](item)
	switch h.Type {
	case "userMessage":
		// Input steered into the running turn: the model request it cut
		// short left its text unfinished.
		return t.flushStreams()
	case "agentMessage":
		return t.openStream(h.ID, "text")
	case "reasoning":
		return t.openStream(h.ID, "thinking")
	case "commandExecution":
		return []Out{t.commandUse(item)}
	case "fileChange":
		return t.fileUses(item)
	case "mcpToolCall", "dynamicToolCall", "webSearch", "imageView":
		return []Out{t.otherUse(h, item)}
	}
	return nil
}

func (t *Translator) itemCompleted(raw json.RawMessage) []Out {
	item := params[itemParams](raw).Item
	h := params[itemHead](item)
	switch h.Type {
	case "userMessage":
		return t.userMessage(item)
	case "agentMessage":
		text := params[struct{ Text string }](item).Text
		t.lastText = text
		return t.closeStream(h.ID, "text", text)
	case "reasoning":
		r := params[struct{ Summary, Content []string }](item)
		text := strings.Join(r.Summary, "\n\n")
		if text == "" {
			text = strings.Join(r.Content, "\n\n")
		}
		return t.closeStream(h.ID, "thinking", text)
	case "commandExecution":
		return []Out{t.commandResult(item)}
	case "fileChange":
		return t.fileResults(item)
	case "mcpToolCall", "dynamicToolCall", "webSearch", "imageView":
		return []Out{t.otherResult(h, item)}
	case "contextCompaction":
		return []Out{t.system("compact_boundary", nil)}
	}
	return nil
}

// userMessage shows a user message Codex recorded that did not come from
// the chat: the chat's own carry its uuid as clientId and are stored
// already.
func (t *Translator) userMessage(item json.RawMessage) []Out {
	u := params[struct {
		ClientID string  `json:"clientId"`
		Content  []Input `json:"content"`
	}](item)
	if u.ClientID != "" {
		return nil
	}
	var blocks []any
	for _, in := range u.Content {
		switch in.Type {
		case "text":
			blocks = append(blocks, map[string]any{"type": "text", "text": in.Text})
		case "image":
			blocks = append(blocks, map[string]any{"type": "image", "source": map[string]any{"type": "url", "url": in.URL}})
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	return []Out{t.message("user", map[string]any{"message": map[string]any{"role": "user", "content": blocks}})}
}

// openStream starts showing item id as it streams.
func (t *Translator) openStream(id, block string) []Out {
	if _, ok := t.streams[id]; ok {
		return nil
	}
	t.streams[id] = &stream{id: id, block: block}
	t.opened = append(t.opened, id)
	start := map[string]any{"type": block, block: ""}
	return []Out{
		t.event(id, map[string]any{"type": "message_start", "message": map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": t.model, "content": []any{}}}),
		t.event(id, map[string]any{"type": "content_block_start", "index": 0, "content_block": start}),
	}
}

// delta streams a part of an item's text (block: text or thinking).
func (t *Translator) delta(raw json.RawMessage, block string) []Out {
	p := params[struct {
		ItemID string `json:"itemId"`
		Delta  string `json:"delta"`
	}](raw)
	if p.Delta == "" {
		return nil
	}
	out := t.openStream(p.ItemID, block)
	s := t.streams[p.ItemID]
	s.text.WriteString(p.Delta)
	kind := "text_delta"
	if s.block == "thinking" {
		kind = "thinking_delta"
	}
	return append(out, t.event(p.ItemID, map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": kind, s.block: p.Delta}}))
}

// summaryPart separates the parts of a reasoning summary.
func (t *Translator) summaryPart(raw json.RawMessage) []Out {
	p := params[struct {
		ItemID string `json:"itemId"`
		Index  int    `json:"summaryIndex"`
	}](raw)
	if p.Index == 0 {
		return nil
	}
	b, _ := json.Marshal(map[string]any{"itemId": p.ItemID, "delta": "\n\n"})
	return t.delta(b, "thinking")
}

// closeStream stores item id's complete block, then ends its stream.
func (t *Translator) closeStream(id, block, text string) []Out {
	s, streamed := t.streams[id]
	delete(t.streams, id)
	var out []Out
	if text != "" {
		out = append(out, t.assistant(id, map[string]any{"type": block, block: text}, false))
	}
	if streamed {
		out = append(out, t.endStream(s.id))
	}
	return out
}

// flushStreams stores what was streamed of items that never completed (an
// interrupt, a steer that cut the reply short), marked aborted.
func (t *Translator) flushStreams() []Out {
	var out []Out
	for _, id := range t.opened {
		s, ok := t.streams[id]
		if !ok {
			continue // completed
		}
		if s.text.Len() > 0 {
			out = append(out, t.assistant(id, map[string]any{"type": s.block, s.block: s.text.String()}, true))
		}
		out = append(out, t.endStream(id))
	}
	clear(t.streams)
	t.opened = t.opened[:0]
	return out
}

func (t *Translator) endStream(id string) Out {
	o := t.event(id, map[string]any{"type": "message_stop"})
	o.EndsMessage = true
	return o
}

// assistant is an assistant message with one block, as the chat stores
// them (one message per block, the API message's id shared).
func (t *Translator) assistant(id string, block map[string]any, aborted bool) Out {
	fields := map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": t.model, "content": []any{block}}}
	if aborted {
		fields["aborted"] = true
	}
	return t.message("assistant", fields)
}

// event is a stream_event for item id.
func (t *Translator) event(id string, ev map[string]any) Out {
	raw := typeFirst("stream_event", nil, map[string]any{"event": ev, "session_id": t.thread,
		"parent_tool_use_id": nil, "api_message_id": id})
	return Out{Kind: OutDelta, Type: "stream_event", Raw: raw}
}
