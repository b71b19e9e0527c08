package fakeopenai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// errGone means the client closed the stream (or the server is closing).
var errGone = errors.New("client disconnected")

// sse writes the Responses API's server-sent events, numbering them and
// flushing each one so the client sees it at once.
type sse struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	r   *http.Request
	seq int
}

func (e *sse) send(v map[string]any) error {
	if e.r.Context().Err() != nil {
		return errGone
	}
	v["sequence_number"] = e.seq
	e.seq++
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

// usage is what every reply reports: OpenAI counts cached tokens inside
// input_tokens.
var usage = map[string]any{
	"input_tokens": 100, "input_tokens_details": map[string]int{"cached_tokens": 20},
	"output_tokens": 10, "output_tokens_details": map[string]int{"reasoning_tokens": 0},
	"total_tokens": 110,
}

// stream sends p as a Responses event stream (agents.md §C). It returns
// errGone when the client left before response.completed.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, p plan, model string) error {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	e := &sse{w: w, rc: http.NewResponseController(w), r: r}
	resp := map[string]any{"id": fmt.Sprintf("resp_fake_%04d", s.nextSeq()), "object": "response",
		"created_at": time.Now().Unix(), "status": "in_progress", "model": model, "output": []any{}}
	if err := e.send(map[string]any{"type": "response.created", "response": resp}); err != nil {
		return err
	}
	if p.hang {
		s.wait(r)
		return errGone
	}
	if err := e.send(map[string]any{"type": "response.in_progress", "response": resp}); err != nil {
		return err
	}
	var output []any
	for i, it := range p.items {
		done, err := s.streamItem(e, i, it, p.slow)
		if err != nil {
			return err
		}
		output = append(output, done)
	}
	final := map[string]any{}
	for k, v := range resp {
		final[k] = v
	}
	final["status"], final["output"], final["usage"] = "completed", output, usage
	return e.send(map[string]any{"type": "response.completed", "response": final})
}

// streamItem sends one output item and returns it complete.
func (s *Server) streamItem(e *sse, index int, it item, slow bool) (map[string]any, error) {
	switch it.Type {
	case "reasoning":
		return s.streamReasoning(e, index, it)
	case "function_call":
		return s.streamCall(e, index, it)
	}
	return s.streamMessage(e, index, it, slow)
}

func (s *Server) streamMessage(e *sse, index int, it item, slow bool) (map[string]any, error) {
	id := fmt.Sprintf("msg_fake_%04d", s.nextSeq())
	added := map[string]any{"id": id, "type": "message", "role": "assistant", "status": "in_progress", "content": []any{}}
	at := map[string]any{"item_id": id, "output_index": index, "content_index": 0}
	evs := []map[string]any{
		{"type": "response.output_item.added", "output_index": index, "item": added},
		with(at, "type", "response.content_part.added", "part", map[string]any{"type": "output_text", "text": "", "annotations": []any{}}),
	}
	if err := sendAll(e, evs); err != nil {
		return nil, err
	}
	chunks := it.Chunks
	if chunks == nil {
		chunks = chunk(it.Text, 25)
	}
	for i, c := range chunks {
		if slow && i > 0 && !s.pause(e.r, s.SlowDelay) {
			return nil, errGone
		}
		if err := e.send(with(at, "type", "response.output_text.delta", "delta", c)); err != nil {
			return nil, err
		}
	}
	part := map[string]any{"type": "output_text", "text": it.Text, "annotations": []any{}}
	done := map[string]any{"id": id, "type": "message", "role": "assistant", "status": "completed", "content": []any{part}}
	return done, sendAll(e, []map[string]any{
		with(at, "type", "response.output_text.done", "text", it.Text),
		with(at, "type", "response.content_part.done", "part", part),
		{"type": "response.output_item.done", "output_index": index, "item": done},
	})
}

func (s *Server) streamReasoning(e *sse, index int, it item) (map[string]any, error) {
	id := fmt.Sprintf("rs_fake_%04d", s.nextSeq())
	at := map[string]any{"item_id": id, "output_index": index, "summary_index": 0}
	part := map[string]any{"type": "summary_text", "text": it.Text}
	evs := []map[string]any{
		{"type": "response.output_item.added", "output_index": index, "item": map[string]any{"id": id, "type": "reasoning", "summary": []any{}}},
		with(at, "type", "response.reasoning_summary_part.added", "part", map[string]any{"type": "summary_text", "text": ""}),
	}
	for _, c := range chunk(it.Text, 16) {
		evs = append(evs, with(at, "type", "response.reasoning_summary_text.delta", "delta", c))
	}
	done := map[string]any{"id": id, "type": "reasoning", "summary": []any{part}}
	evs = append(evs,
		with(at, "type", "response.reasoning_summary_text.done", "text", it.Text),
		with(at, "type", "response.reasoning_summary_part.done", "part", part),
		map[string]any{"type": "response.output_item.done", "output_index": index, "item": done})
	return done, sendAll(e, evs)
}

func (s *Server) streamCall(e *sse, index int, it item) (map[string]any, error) {
	n := s.nextSeq()
	id, call := fmt.Sprintf("fc_fake_%04d", n), fmt.Sprintf("call_fake_%04d", n)
	added := map[string]any{"id": id, "type": "function_call", "status": "in_progress", "name": it.Name, "call_id": call, "arguments": ""}
	if it.Namespace != "" {
		added["namespace"] = it.Namespace
	}
	done := with(added, "status", "completed", "arguments", it.Args)
	at := map[string]any{"item_id": id, "output_index": index}
	return done, sendAll(e, []map[string]any{
		{"type": "response.output_item.added", "output_index": index, "item": added},
		with(at, "type", "response.function_call_arguments.delta", "delta", it.Args),
		with(at, "type", "response.function_call_arguments.done", "arguments", it.Args),
		{"type": "response.output_item.done", "output_index": index, "item": done},
	})
}

func sendAll(e *sse, evs []map[string]any) error {
	for _, ev := range evs {
		if err := e.send(ev); err != nil {
			return err
		}
	}
	return nil
}

// with returns a copy of base with the key/value pairs kv added.
func with(base map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(base)+len(kv)/2)
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
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
