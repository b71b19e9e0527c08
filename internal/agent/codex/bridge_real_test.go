package codex

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// The tool bridge as Codex's dynamic tools, with the real CLI: the fake
// Responses API calls the declared tool, a provider of the registry
// answers, and its answer reaches the model as the function_call_output.

const bridgeScope = "s-codex"

// never is the approval policy under which a call runs without asking.
var never = Settings{Policy: "never"}

// echoProvider is a provider of browser_echo for bridgeScope.
func echoProvider(t *testing.T, reg *toolbridge.Registry) *toolbridge.Provider {
	t.Helper()
	p := reg.Connect("test tab")
	t.Cleanup(p.Close)
	tool := toolbridge.Tool{Name: "browser_echo", Description: "Echo text in the browser.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
	if _, err := p.Register(bridgeScope, []toolbridge.Tool{tool}); err != nil {
		t.Fatal(err)
	}
	return p
}

// frameOf waits for the provider's next frame of type typ.
func frameOf(t *testing.T, p *toolbridge.Provider, typ string) map[string]any {
	t.Helper()
	guard := time.NewTimer(time.Minute)
	defer guard.Stop()
	for {
		select {
		case b := <-p.Frames():
			var f map[string]any
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatalf("frame %s: %v", b, err)
			}
			if f["type"] == typ {
				return f
			}
		case <-guard.C:
			t.Fatalf("no %s frame within a minute", typ)
		}
	}
}

// toolOutputs are the function_call_output texts the fake API was sent.
func toolOutputs(h *harness) []string {
	var out []string
	for _, r := range h.api.ResponseRequests() {
		for _, it := range r.Input() {
			if it.Type == "function_call_output" {
				out = append(out, it.OutputText())
			}
		}
	}
	return out
}

func TestRealDynamicToolAnswered(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope})
	if err := s.Send(t.Context(), Message{ID: "u-1", Text: `tool:browser_echo {"text":"hi from codex"}`}); err != nil {
		t.Fatal(err)
	}
	// The person is asked first (Codex asks no approval for a dynamic
	// tool): the request names the provider; "for this session" allows
	// the next call without asking.
	use := decode(t, c.wait(t, "the tool card", hasBlock(t, "tool_use")))
	req := askedFor(t, c, "browser_echo", "test tab")
	if b := use.Message.Content[0]; b.Name != "mcp__agentdesk__browser_echo" || b.ID != req.ToolUseID {
		t.Fatalf("tool card %+v, request %+v", b, req)
	}
	if string(req.Input) != `{"text":"hi from codex"}` {
		t.Errorf("request input %s", req.Input)
	}
	if err := s.Answer(req.ID, Answer{Allow: true, Session: true}); err != nil {
		t.Fatal(err)
	}
	call := frameOf(t, p, toolbridge.TypeCall)
	if call["toolUseId"] != req.ToolUseID {
		t.Errorf("call %v for the request of %s", call, req.ToolUseID)
	}
	if call["tool"] != "browser_echo" || call["sessionId"] != bridgeScope {
		t.Fatalf("call frame %v", call)
	}
	if in, _ := json.Marshal(call["input"]); string(in) != `{"text":"hi from codex"}` {
		t.Fatalf("call input %s", in)
	}
	if err := p.Answer(call["callId"].(string), toolbridge.TextResult("browser says: hi from codex")); err != nil {
		t.Fatal(err)
	}
	res := decode(t, c.wait(t, "the tool's result", hasBlock(t, "tool_result")))
	if b := res.Message.Content[0]; b.Content != "browser says: hi from codex" || b.IsError || b.ToolUseID != call["toolUseId"] {
		t.Fatalf("tool result %+v", b)
	}
	r := decode(t, c.wait(t, "result", isResult))
	if r.Subtype != "success" || r.Result != "Tool finished. Output: 'browser says: hi from codex'" {
		t.Fatalf("result %+v", r)
	}
	if outs := toolOutputs(h); len(outs) != 1 || outs[0] != "browser says: hi from codex" {
		t.Fatalf("the model was sent %q", outs)
	}

	s.Send(t.Context(), Message{ID: "u-2", Text: `tool:browser_echo {"text":"again"}`})
	call = frameOf(t, p, toolbridge.TypeCall)
	p.Answer(call["callId"].(string), toolbridge.TextResult("again"))
	c.wait(t, "result", isResult)
	for _, o := range c.all() {
		if o.Kind == OutRequest && o.Request.ID != req.ID {
			t.Errorf("asked again after allow for this session: %+v", o.Request)
		}
	}
}

// askedFor waits for the permission request of a call of the bridge's
// tool and checks that it names the provider.
func askedFor(t *testing.T, c *collector, tool, provider string) *Request {
	t.Helper()
	req := c.wait(t, "the permission request", isRequest).Request
	if req.Tool != BridgePrefix+tool || req.Description != "Provided by "+provider+"." || req.ToolUseID == "" {
		t.Fatalf("permission request %+v", req)
	}
	return req
}

// A denied call is never sent to the provider; the model reads why, the
// card shows the error, and the turn goes on.
func TestRealDynamicToolDenied(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope})
	s.Send(t.Context(), Message{ID: "u-1", Text: `tool:browser_echo {"text":"no"}`})
	req := askedFor(t, c, "browser_echo", "test tab")
	if err := s.Answer(req.ID, Answer{Message: "Not now."}); err != nil {
		t.Fatal(err)
	}
	want := "Not now. mcp__agentdesk__browser_echo did not run."
	res := decode(t, c.wait(t, "the tool's result", hasBlock(t, "tool_result")))
	if b := res.Message.Content[0]; !b.IsError || b.Content != want || b.ToolUseID != req.ToolUseID {
		t.Fatalf("tool result %+v", b)
	}
	if r := decode(t, c.wait(t, "result", isResult)); len(r.PermissionDenials) != 1 {
		t.Errorf("result's denials %v", r.PermissionDenials)
	}
	if outs := toolOutputs(h); len(outs) != 1 || outs[0] != want {
		t.Fatalf("the model was sent %q", outs)
	}
	// The turn is over and its only call was answered by the deny: a
	// call frame now would have been sent before it.
	select {
	case f := <-p.Frames():
		t.Fatalf("the provider got %s", f)
	default:
	}
}

// The approval policy "never" and an allowed tool run the call without
// asking.
func TestRealDynamicToolWithoutAsking(t *testing.T) {
	for name, o := range map[string]SessionOptions{
		"never":           {Settings: Settings{Policy: "never"}},
		"allowed by rule": {Allowed: rules([]string{"mcp__agentdesk__*"})},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, "")
			reg := toolbridge.New(toolbridge.Options{})
			p := echoProvider(t, reg)
			o.Tools, o.ToolScope = reg, bridgeScope
			s, c := h.open(o)
			s.Send(t.Context(), Message{ID: "u-1", Text: `tool:browser_echo {"text":"go"}`})
			call := frameOf(t, p, toolbridge.TypeCall)
			p.Answer(call["callId"].(string), toolbridge.TextResult("went"))
			c.wait(t, "result", isResult)
			for _, o := range c.all() {
				if o.Kind == OutRequest {
					t.Errorf("asked: %+v", o.Request)
				}
			}
		})
	}
}

func TestRealDynamicToolInterrupted(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope, Settings: never})
	if err := s.Send(t.Context(), Message{ID: "u-1", Text: `tool:browser_echo {"text":"never answered"}`}); err != nil {
		t.Fatal(err)
	}
	call := frameOf(t, p, toolbridge.TypeCall)
	if err := s.Interrupt(t.Context()); err != nil {
		t.Fatal(err)
	}
	if f := frameOf(t, p, toolbridge.TypeCancel); f["callId"] != call["callId"] {
		t.Fatalf("cancel frame %v for call %v", f, call)
	}
	if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != "error_during_execution" {
		t.Fatalf("interrupted result %+v", r)
	}
	// The turn after works, and the provider's late answer is refused.
	if err := p.Answer(call["callId"].(string), toolbridge.TextResult("too late")); err == nil {
		t.Fatal("a cancelled call took an answer")
	}
	s.Send(t.Context(), Message{ID: "u-2", Text: "after the interrupt"})
	if r := decode(t, c.wait(t, "result", isResult)); !strings.HasPrefix(r.Result, "Echo: after the interrupt") {
		t.Fatalf("next turn %+v", r)
	}
}

func TestRealDynamicToolNoProvider(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope, Settings: never})
	p.Close() // declared at thread/start, gone by the call
	s.Send(t.Context(), Message{ID: "u-1", Text: "tool:browser_echo"})
	res := decode(t, c.wait(t, "the tool's result", hasBlock(t, "tool_result")))
	if b := res.Message.Content[0]; !b.IsError || !strings.Contains(b.Content, "No provider serves the tool browser_echo") {
		t.Fatalf("tool result %+v", b)
	}
	c.wait(t, "result", isResult)
	if outs := toolOutputs(h); len(outs) != 1 || !strings.Contains(outs[0], "No provider serves the tool browser_echo") {
		t.Fatalf("the model was sent %q", outs)
	}
}

func TestRealDynamicToolAfterResume(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope, Settings: never})
	s.Send(t.Context(), Message{ID: "u-1", Text: "hello"})
	c.wait(t, "result", isResult)
	thread := s.Thread()
	s.Close(t.Context())

	s2, c2 := h.open(SessionOptions{Thread: thread, Tools: reg, ToolScope: bridgeScope, Settings: never})
	if s2.Resumed() != nil {
		t.Fatal(s2.Resumed())
	}
	s2.Send(t.Context(), Message{ID: "u-2", Text: `tool:browser_echo {"text":"after resume"}`})
	call := frameOf(t, p, toolbridge.TypeCall)
	p.Answer(call["callId"].(string), toolbridge.TextResult("resumed echo"))
	c2.wait(t, "result", isResult)
	if outs := toolOutputs(h); len(outs) != 1 || outs[0] != "resumed echo" {
		t.Fatalf("the model was sent %q", outs)
	}
}

// Interrupting a turn whose call waits for the person withdraws the
// request; the provider is never called and the next turn works.
func TestRealDynamicToolInterruptedWhileAsking(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope})
	s.Send(t.Context(), Message{ID: "u-1", Text: `tool:browser_echo {"text":"pending"}`})
	req := askedFor(t, c, "browser_echo", "test tab")
	if err := s.Interrupt(t.Context()); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "the request withdrawn", func(o Out) bool { return o.Kind == OutWithdrawn && o.RequestID == req.ID })
	if err := s.Answer(req.ID, Answer{Allow: true}); err == nil {
		t.Error("a withdrawn request took an answer")
	}
	s.Send(t.Context(), Message{ID: "u-2", Text: "after the interrupt"})
	if r := decode(t, c.wait(t, "result", func(o Out) bool {
		return isResult(o) && strings.HasPrefix(decode(t, o).Result, "Echo: after the interrupt")
	})); r.Subtype != "success" {
		t.Fatalf("next turn %+v", r)
	}
	select {
	case f := <-p.Frames():
		t.Fatalf("the provider got %s", f)
	default:
	}
}
