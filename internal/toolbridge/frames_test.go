package toolbridge

import (
	"strings"
	"testing"
	"time"
)

func TestProviderFrames(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("")
	defer p.Close()
	p.Handle([]byte(`{"type":"register","provider":"  Datagrok\n page ","sessionId":"s1","tools":[{"name":"grid_rows","description":"Rows of the open grid.","inputSchema":{"type":"object"}}]}`))
	if f := frame(t, p); f["type"] != TypeRegistered || f["sessionId"] != "s1" || f["tools"].([]any)[0] != "grid_rows" {
		t.Errorf("registered: %v", f)
	}
	if p.Name() != "Datagrok page" {
		t.Errorf("name %q", p.Name())
	}
	bad := map[string]string{
		`{"type":"register","sessionID":"s1","tools":[]}`:               `unknown field "sessionID"`,
		`{"type":"register","tools":[]}`:                                "sessionId is required",
		`{"type":"register","sessionId":"s1","tools":[{"name":"a b"}]}`: "register refused: tool name",
		`{"type":"hello"}`: `unknown frame type "hello"`,
		`[1]`:              "one JSON object",
		`{"type":"tool-result","callId":"nope","content":[]}`:          "call nope is not waiting",
		`{"type":"register","sessionId":"s1","tools":[]} {"type":"x"}`: "exactly one JSON object",
	}
	for in, want := range bad {
		p.Handle([]byte(in))
		f := frame(t, p)
		if f["type"] != TypeError || !strings.Contains(f["message"].(string), want) {
			t.Errorf("%s: got %v, want an error with %q", in, f, want)
		}
	}
	p.Handle(nil)
	if f := frame(t, p); f["code"] != "invalid_message" {
		t.Errorf("binary frame: %v", f)
	}

	done := make(chan Result, 1)
	go func() { done <- r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "grid_rows"}) }()
	call := nextFrame(t, p)
	id := call["callId"].(string)
	p.Handle([]byte(`{"type":"tool-result","callId":"` + id + `","content":[{"type":"image","data":"x","mimeType":"image/png"}]}`))
	if f := frame(t, p); f["code"] != "invalid_field" || f["callId"] != id {
		t.Errorf("a bad result: %v", f)
	}
	p.Handle([]byte(`{"type":"tool-result","callId":"` + id + `","content":[{"type":"json","json":{"rows":2}}]}`))
	if res := <-done; res.IsError || string(res.Content[0].JSON) != `{"rows":2}` {
		t.Errorf("result %+v", res)
	}
	if len(r.Tools("s1")) != 1 {
		t.Fatal("tools lost")
	}
	p.Handle([]byte(`{"type":"register","sessionId":"s1","tools":[]}`))
	if f := frame(t, p); f["type"] != TypeRegistered || len(f["tools"].([]any)) != 0 || len(r.Tools("s1")) != 0 {
		t.Errorf("unregister: %v, tools %v", f, r.Tools("s1"))
	}
}
