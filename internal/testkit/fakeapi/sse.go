package fakeapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// errGone means the client closed the stream (or the server is closing).
var errGone = errors.New("client disconnected")

// sse writes server-sent events, flushing each one so the client sees it
// at once.
type sse struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	r  *http.Request
}

func (e sse) send(v map[string]any) error {
	if e.r.Context().Err() != nil {
		return errGone
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", v["type"], b); err != nil {
		return errGone
	}
	if err := e.rc.Flush(); err != nil {
		return errGone
	}
	return nil
}

// stream sends p as a Messages API event stream (claude-cli.md §12). It
// returns errGone when the client left before message_stop.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, p plan, model string, in int) error {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	e := sse{w: w, rc: http.NewResponseController(w), r: r}
	msg := map[string]any{
		"id": fmt.Sprintf("msg_fake_%04d", s.nextSeq()), "type": "message", "role": "assistant",
		"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": in, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}
	if err := e.send(map[string]any{"type": "message_start", "message": msg}); err != nil {
		return err
	}
	if err := e.send(map[string]any{"type": "ping"}); err != nil {
		return err
	}
	out := 0
	for i, b := range p.blocks {
		n, err := s.streamBlock(e, i, b, p.slow)
		if err != nil {
			return err
		}
		out += n
	}
	if err := e.send(map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": p.stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": out}}); err != nil {
		return err
	}
	return e.send(map[string]any{"type": "message_stop"})
}

// streamBlock sends one content block and returns its token count.
func (s *Server) streamBlock(e sse, index int, b block, slow bool) (int, error) {
	start := map[string]any{"type": "text", "text": ""}
	var deltas []map[string]any
	switch b.Type {
	case "thinking":
		start = map[string]any{"type": "thinking", "thinking": "", "signature": ""}
		for _, c := range chunk(b.Text, 16) {
			deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": c})
		}
		deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": signature})
	case "tool_use":
		start = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_%04d", s.nextSeq()),
			"name": b.ToolName, "input": map[string]any{}}
		input, _ := json.Marshal(b.Input)
		for _, c := range chunk(string(input), 20) {
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": c})
		}
	default:
		chunks := b.Chunks
		if chunks == nil {
			chunks = chunk(b.Text, 25)
		}
		for _, c := range chunks {
			deltas = append(deltas, map[string]any{"type": "text_delta", "text": c})
		}
	}
	if err := e.send(map[string]any{"type": "content_block_start", "index": index, "content_block": start}); err != nil {
		return 0, err
	}
	for i, d := range deltas {
		if slow && i > 0 && !s.pause(e.r, s.SlowDelay) {
			return 0, errGone
		}
		if err := e.send(map[string]any{"type": "content_block_delta", "index": index, "delta": d}); err != nil {
			return 0, err
		}
	}
	return len(deltas) + 1, e.send(map[string]any{"type": "content_block_stop", "index": index})
}

// chunk cuts s into pieces of n bytes, never inside a UTF-8 sequence.
func chunk(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut < len(s) && s[cut]&0xC0 == 0x80 {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" || len(out) == 0 {
		out = append(out, s)
	}
	return out
}
