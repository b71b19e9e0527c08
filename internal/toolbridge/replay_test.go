package toolbridge

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// The recordings in testdata are the MCP exchanges of the real CLI 2.1.330
// with a reference host (../shared/fixtures/agents/recordings, section A of
// agents.md), cut to the initialize request, the mcp_message control
// requests and their answers. The replay feeds the CLI's messages to a
// Host whose provider answers each call as the reference host's browser
// did, and checks that the Host answers what the reference host answered.

type recLine struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
}

type recMsg struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Request   struct {
		Subtype string          `json:"subtype"`
		Message json.RawMessage `json:"message"`
	} `json:"request"`
	Response struct {
		RequestID string `json:"request_id"`
		Response  struct {
			MCP json.RawMessage `json:"mcp_response"`
		} `json:"response"`
	} `json:"response"`
}

func readRecording(t *testing.T, name string) []recMsg {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".mcp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []recMsg
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l recLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Dir == "note" {
			continue
		}
		var m recMsg
		if err := json.Unmarshal(l.Msg, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "control_request" && l.Dir == "stdin" && m.Request.Subtype == "mcp_message" {
			m.Type = "host_request" // list_changed from the host
		}
		out = append(out, m)
	}
	return out
}

type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
	Result *struct {
		Tools   []Tool       `json:"tools"`
		Content []mcpContent `json:"content"`
		IsError bool         `json:"isError"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func decodeRPC(t *testing.T, b []byte) rpc {
	t.Helper()
	var r rpc
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return r
}

// canonical is b as a comparable value, tool lists sorted by name (the
// Registry lists tools by name, the reference host in its own order).
func canonical(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if m, ok := v.(map[string]any); ok {
		if res, ok := m["result"].(map[string]any); ok {
			if tools, ok := res["tools"].([]any); ok {
				slices.SortFunc(tools, func(a, b any) int {
					return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
				})
			}
		}
	}
	return v
}

// answers maps each request id to the reference host's mcp_response.
func answers(msgs []recMsg) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, m := range msgs {
		if m.Type == "control_response" && m.Response.Response.MCP != nil {
			out[m.Response.RequestID] = m.Response.Response.MCP
		}
	}
	return out
}

// toolSets are the tool lists the reference host answered, in order.
func toolSets(t *testing.T, msgs []recMsg, ans map[string]json.RawMessage) [][]Tool {
	var sets [][]Tool
	for _, m := range msgs {
		if m.Type == "control_request" && m.Request.Subtype == "mcp_message" {
			if decodeRPC(t, m.Request.Message).Method == "tools/list" {
				sets = append(sets, decodeRPC(t, ans[m.RequestID]).Result.Tools)
			}
		}
	}
	return sets
}

func TestHostReplaysTheRecordings(t *testing.T) {
	for _, name := range []string{"A1_basic", "A7_errors", "A9_interrupt", "A10_listchanged", "A15_image_result"} {
		t.Run(name, func(t *testing.T) { replay(t, name) })
	}
}

func replay(t *testing.T, name string) {
	msgs := readRecording(t, name)
	ans := answers(msgs)
	sets := toolSets(t, msgs, ans)
	if len(sets) == 0 {
		t.Fatal("the recording lists no tools")
	}
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("reference page")
	defer p.Close()
	register(t, p, "s", sets[0]...)
	notified := make(chan []byte, 4)
	h := NewHost(r, HostOptions{Scope: "s", Name: "browser", Version: "0.1.0", ToolUseMeta: "claudecode/toolUseId",
		Notify: func(m []byte) { notified <- m }})
	defer h.Close()

	lists, cancelled := 1, 0
	pending := map[string]chan []byte{} // calls the reference host never answered
	for _, m := range msgs {
		switch {
		case m.Type == "host_request": // the reference host's tools changed
			register(t, p, "s", sets[lists]...)
			lists++
			if got := <-notified; !reflect.DeepEqual(canonical(t, got), canonical(t, m.Request.Message)) {
				t.Errorf("list_changed: %s, want %s", got, m.Request.Message)
			}
		case m.Type == "control_request" && m.Request.Subtype == "mcp_message":
			msg := decodeRPC(t, m.Request.Message)
			got := make(chan []byte, 1)
			h.Handle(m.Request.Message, func(b []byte) { got <- b })
			want, answered := ans[m.RequestID]
			if msg.Method == "tools/call" {
				answerAsRecorded(t, p, msg, want, answered)
			}
			if msg.Method == "notifications/cancelled" {
				cancelled++
				f := nextFrame(t, p)
				if f["type"] != TypeCancel || f["reason"] != "cancelled" {
					t.Errorf("after notifications/cancelled the provider got %v", f)
				}
			}
			if !answered {
				pending[string(msg.ID)] = got
				continue
			}
			if rec := decodeRPC(t, want); rec.Error != nil && msg.Method == "tools/call" {
				// A provider's failure is an error result, which the CLI
				// shows as it shows a JSON-RPC error (agents.md, A7).
				want = rpcResult(msg.ID, mcpResult(ErrorResult(rec.Error.Message)))
			}
			if b := <-got; !reflect.DeepEqual(canonical(t, b), canonical(t, want)) {
				t.Errorf("%s %s: answered %s, want %s", msg.Method, msg.Params.Name, b, want)
			}
		}
	}
	if name == "A9_interrupt" && (cancelled != 1 || len(pending) != 1) {
		t.Errorf("cancelled %d, unanswered %d: want the one call cancelled", cancelled, len(pending))
	}
	h.Close()
	for id, got := range pending {
		if len(got) != 0 {
			t.Errorf("the cancelled call %s was answered: %s", id, <-got)
		}
	}
}

// answerAsRecorded answers the call the Host routed to p as the reference
// host's browser did: its content, or its JSON-RPC error as an error text.
func answerAsRecorded(t *testing.T, p *Provider, call rpc, want json.RawMessage, answered bool) {
	t.Helper()
	f := nextFrame(t, p)
	if f["type"] != TypeCall || f["tool"] != call.Params.Name {
		t.Fatalf("tools/call %s reached the provider as %v", call.Params.Name, f)
	}
	if !strings.HasPrefix(f["toolUseId"].(string), "toolu_") {
		t.Errorf("the call frame lacks the tool use id: %v", f)
	}
	if !answered {
		return
	}
	rec := decodeRPC(t, want)
	var res Result
	switch {
	case rec.Error != nil:
		res = ErrorResult(rec.Error.Message)
	default:
		res.IsError = rec.Result.IsError
		for _, c := range rec.Result.Content {
			res.Content = append(res.Content, Content{Type: c.Type, Text: c.Text, Data: c.Data, MimeType: c.MimeType})
		}
	}
	if err := p.Answer(f["callId"].(string), res); err != nil {
		t.Fatal(err)
	}
}
