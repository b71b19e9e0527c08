package fakeapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// reply is a decoded answer: the text and tool input of every block.
type reply struct {
	status  int
	events  []string
	blocks  []map[string]any // content_block_start blocks, or full blocks
	text    map[int]string   // concatenated deltas per index
	stop    string
	reqID   string
	errType string
}

func post(t *testing.T, s *fakeapi.Server, body any) reply {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(t.Context(), "POST", s.URL()+"/v1/messages?beta=true", bytes.NewReader(b))
	req.Header.Set("X-Claude-Code-Session-Id", "sid-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode, text: map[int]string{}, reqID: resp.Header.Get("request-id")}
	if resp.StatusCode != 200 {
		var e struct{ Error struct{ Type string } }
		json.NewDecoder(resp.Body).Decode(&e)
		r.errType = e.Error.Type
		return r
	}
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		var msg struct {
			Content    []map[string]any
			StopReason string `json:"stop_reason"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
			t.Fatal(err)
		}
		r.blocks, r.stop = msg.Content, msg.StopReason
		for i, b := range msg.Content {
			r.text[i], _ = b["text"].(string)
		}
		return r
	}
	readSSE(t, resp.Body, &r)
	return r
}

// readSSE decodes an event stream, checking that each data repeats its
// event name.
func readSSE(t *testing.T, body io.Reader, r *reply) {
	t.Helper()
	sc := bufio.NewScanner(body)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var ev struct {
				Type         string
				Index        int
				ContentBlock map[string]any `json:"content_block"`
				Delta        map[string]any
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil || ev.Type != name {
				t.Fatalf("event %q data %s: %v", name, line, err)
			}
			r.events = append(r.events, name)
			switch name {
			case "content_block_start":
				r.blocks = append(r.blocks, ev.ContentBlock)
			case "content_block_delta":
				for _, k := range []string{"text", "thinking", "partial_json"} {
					if s, ok := ev.Delta[k].(string); ok {
						r.text[ev.Index] += s
					}
				}
			case "message_delta":
				r.stop, _ = ev.Delta["stop_reason"].(string)
			}
		}
	}
}

func userMsg(content any) map[string]any { return map[string]any{"role": "user", "content": content} }

var someTools = []any{map[string]any{"name": "Bash"}}

func TestReplies(t *testing.T) {
	s := fakeapi.New(t)
	reminder := map[string]any{"type": "text", "text": "<system-reminder>\nthink ask slow\n</system-reminder>"}
	tests := []struct {
		name     string
		body     map[string]any
		status   int
		errType  string
		stop     string
		blocks   []string // block types
		contains map[int]string
	}{
		{"echo", map[string]any{"stream": true, "tools": someTools, "messages": []any{
			userMsg([]any{reminder, map[string]any{"type": "text", "text": "hello"}}),
			map[string]any{"role": "system", "content": "env"}}},
			200, "", "end_turn", []string{"text"}, map[int]string{0: "Echo: hello (request had 2 messages)"}},
		{"think", map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("think about it")}},
			200, "", "end_turn", []string{"thinking", "text"}, map[int]string{1: "Echo: think about it"}},
		{"bash", map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("please bash:touch a b.txt\nthanks")}},
			200, "", "tool_use", []string{"text", "tool_use"}, map[int]string{1: `{"command":"touch a b.txt","description":"Run touch a b.txt"}`}},
		{"ask", map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("Ask me something")}},
			200, "", "tool_use", []string{"text", "tool_use"}, map[int]string{1: `"Which color do you prefer?"`}},
		{"not a keyword inside a word", map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("a task")}},
			200, "", "end_turn", []string{"text"}, map[int]string{0: "Echo: a task"}},
		{"tool result", map[string]any{"stream": true, "tools": someTools, "messages": []any{
			userMsg("bash:ls"),
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": map[string]any{}}}},
			userMsg([]any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": "The user said no", "is_error": true}})}},
			200, "", "end_turn", []string{"text"}, map[int]string{0: "Tool finished. Results:\n- `Bash` (error): 'The user said no'\n\n(request had 3 messages)"}},
		{"error400", map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("error400 please")}},
			400, "invalid_request_error", "", nil, nil},
		{"overloaded", map[string]any{"stream": true, "tools": someTools, "messages": []any{userMsg("overloaded please")}},
			529, "overloaded_error", "", nil, nil},
		{"no tools: plain echo", map[string]any{"stream": true, "messages": []any{userMsg("bash:ls")}},
			200, "", "end_turn", []string{"text"}, map[int]string{0: "Echo: bash:ls"}},
		{"json schema", map[string]any{"stream": true, "messages": []any{userMsg("x")}, "output_config": map[string]any{
			"format": map[string]any{"type": "json_schema", "schema": map[string]any{"type": "object",
				"properties": map[string]any{"title": map[string]any{"type": "string"}}, "required": []any{"title"}}}}},
			200, "", "end_turn", []string{"text"}, map[int]string{0: `{"title":"fake"}`}},
		{"not streaming", map[string]any{"max_tokens": 1, "messages": []any{userMsg("Hi")}},
			200, "", "end_turn", []string{"text"}, map[int]string{0: "Echo: Hi (request had 1 messages)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, s, tt.body)
			if r.status != tt.status || r.errType != tt.errType || r.stop != tt.stop {
				t.Fatalf("got %d %q stop %q, want %d %q stop %q", r.status, r.errType, r.stop, tt.status, tt.errType, tt.stop)
			}
			if !strings.HasPrefix(r.reqID, "req_fake_") {
				t.Errorf("request-id %q", r.reqID)
			}
			var types []string
			for _, b := range r.blocks {
				types = append(types, b["type"].(string))
			}
			if strings.Join(types, ",") != strings.Join(tt.blocks, ",") {
				t.Fatalf("blocks %v, want %v", types, tt.blocks)
			}
			for i, want := range tt.contains {
				if !strings.Contains(r.text[i], want) {
					t.Errorf("block %d = %q, want it to contain %q", i, r.text[i], want)
				}
			}
		})
	}
}

func TestStreamShape(t *testing.T) {
	s := fakeapi.New(t)
	r := post(t, s, map[string]any{"model": "m-x", "stream": true, "tools": someTools, "messages": []any{userMsg("hi")}})
	want := "message_start,ping,content_block_start,content_block_delta,content_block_stop,message_delta,message_stop"
	got := strings.Join(r.events, ",")
	if strings.ReplaceAll(got, "content_block_delta,", "") != strings.ReplaceAll(want, "content_block_delta,", "") {
		t.Fatalf("events %s", got)
	}
}
