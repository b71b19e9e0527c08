package toolbridge

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestManifestIsTheRecordedOne: the cached handshake a Host gives is the
// one the CLI took in A16_manifests (it parked the server and sent no
// initialize or tools/list).
func TestManifestIsTheRecordedOne(t *testing.T) {
	raw, err := os.ReadFile("testdata/A16_manifests.mcp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Msg struct {
			Request struct {
				Manifests map[string]json.RawMessage `json:"sdkMcpServerManifests"`
			} `json:"request"`
		} `json:"msg"`
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.Contains(line, "sdkMcpServerManifests") {
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := rec.Msg.Request.Manifests["browser"]
	var m Manifest
	if err := json.Unmarshal(want, &m); err != nil {
		t.Fatal(err)
	}
	var tools toolsList
	if err := json.Unmarshal(m.ToolsListResult, &tools); err != nil {
		t.Fatal(err)
	}
	r := New(Options{})
	p := r.Connect("page")
	defer p.Close()
	register(t, p, "s", tools.Tools...)
	h := NewHost(r, HostOptions{Scope: "s", Name: "browser", Version: "0.1.0"})
	defer h.Close()
	got := mustJSON(h.Manifest())
	if !reflect.DeepEqual(canonicalManifest(t, got), canonicalManifest(t, want)) {
		t.Errorf("manifest\n%s\nwant\n%s", got, want)
	}
}

func canonicalManifest(t *testing.T, b []byte) any {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return []any{canonical(t, m["initializeResult"]), canonical(t, []byte(`{"result":`+string(m["toolsListResult"])+`}`))}
}

func handle(t *testing.T, h *Host, msg string) string {
	t.Helper()
	got := make(chan []byte, 1)
	h.Handle([]byte(msg), func(b []byte) { got <- b })
	select {
	case b := <-got:
		return string(b)
	default:
		t.Fatalf("%s was not answered at once", msg)
		return ""
	}
}

func TestHostAnswersAtOnce(t *testing.T) {
	r := New(Options{})
	h := NewHost(r, HostOptions{Scope: "s", Name: "agentdesk", Version: "1"})
	defer h.Close()
	cases := map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`:                                      `{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":"a","method":"resources/list"}`:                          `{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"method not found: resources/list"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:                                `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                        `{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`: `{"jsonrpc":"2.0","result":{}}`,
		`not json`: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not a JSON-RPC message"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}`:                               `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"tools/call needs params.name"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`: `{"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"agentdesk","version":"1"}}}`,
	}
	for msg, want := range cases {
		if got := handle(t, h, msg); got != want {
			t.Errorf("%s\n got %s\nwant %s", msg, got, want)
		}
	}
}

// TestHostCallWithoutProvider: a call of a tool no one serves is answered
// at once with an error result; the turn never waits.
func TestHostCallWithoutProvider(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	h := NewHost(r, HostOptions{Scope: "s", Name: "agentdesk"})
	defer h.Close()
	got := make(chan []byte, 1)
	h.Handle([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ask_user","arguments":{}}}`), func(b []byte) { got <- b })
	res := decodeRPC(t, <-got)
	if res.Result == nil || !res.Result.IsError || !strings.Contains(res.Result.Content[0].Text, "No provider serves the tool ask_user") {
		t.Errorf("got %+v", res)
	}
}

// TestHostCloseCancelsCalls: when the agent is gone, its calls are
// cancelled at their providers and never answered.
func TestHostCloseCancelsCalls(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("tab")
	defer p.Close()
	register(t, p, "s", echoTool("echo"))
	var started []string
	h := NewHost(r, HostOptions{Scope: "s", Name: "agentdesk", ToolUseMeta: "k",
		Started: func(tu, id, provider string) { started = append(started, tu, provider) }})
	answered := make(chan []byte, 1)
	h.Handle([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","_meta":{"k":"tu1"}}}`), func(b []byte) { answered <- b })
	call := nextFrame(t, p)
	h.Close()
	if f := nextFrame(t, p); f["type"] != TypeCancel || f["callId"] != call["callId"] {
		t.Errorf("provider got %v", f)
	}
	if len(answered) != 0 {
		t.Errorf("answered after close: %s", <-answered)
	}
	if strings.Join(started, ",") != "tu1,tab" {
		t.Errorf("started %v", started)
	}
	h.Handle([]byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo"}}`), func(b []byte) { answered <- b })
	if len(p.Frames()) != 0 || len(answered) != 0 {
		t.Error("a closed host started a call")
	}
}

// TestHostNotifiesOnlyRealChanges: registering the same tools again (a
// tab shown again) does not make the agent list its tools again.
func TestHostNotifiesOnlyRealChanges(t *testing.T) {
	r := New(Options{})
	notified := make(chan []byte, 8)
	h := NewHost(r, HostOptions{Scope: "s", Name: "agentdesk", Notify: func(b []byte) { notified <- b }})
	defer h.Close()
	h.Manifest() // the agent knows the empty list
	p := r.Connect("tab")
	defer p.Close()
	register(t, p, "s", echoTool("echo"))
	if got := <-notified; string(got) != string(ListChanged()) {
		t.Fatalf("got %s", got)
	}
	handle(t, h, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	q := r.Connect("another tab")
	defer q.Close()
	register(t, q, "s", echoTool("echo")) // the same tool, now from q
	register(t, p, "s2", echoTool("other"))
	register(t, p, "s", echoTool("echo"), echoTool("more"))
	if got := <-notified; string(got) != string(ListChanged()) {
		t.Fatalf("got %s", got)
	}
	if len(notified) != 0 {
		t.Errorf("notified %d times more", len(notified))
	}
}
