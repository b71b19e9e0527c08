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
	call := frameOf(t, p, toolbridge.TypeCall)
	if call["tool"] != "browser_echo" || call["sessionId"] != bridgeScope {
		t.Fatalf("call frame %v", call)
	}
	if in, _ := json.Marshal(call["input"]); string(in) != `{"text":"hi from codex"}` {
		t.Fatalf("call input %s", in)
	}
	if err := p.Answer(call["callId"].(string), toolbridge.TextResult("browser says: hi from codex")); err != nil {
		t.Fatal(err)
	}
	use := decode(t, c.wait(t, "the tool card", hasBlock(t, "tool_use")))
	if b := use.Message.Content[0]; b.Name != "mcp__agentdesk__browser_echo" || b.ID != call["toolUseId"] {
		t.Fatalf("tool card %+v, call frame %v", b, call)
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
}

func TestRealDynamicToolInterrupted(t *testing.T) {
	h := newHarness(t, "")
	reg := toolbridge.New(toolbridge.Options{})
	p := echoProvider(t, reg)
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope})
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
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope})
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
	s, c := h.open(SessionOptions{Tools: reg, ToolScope: bridgeScope})
	s.Send(t.Context(), Message{ID: "u-1", Text: "hello"})
	c.wait(t, "result", isResult)
	thread := s.Thread()
	s.Close(t.Context())

	s2, c2 := h.open(SessionOptions{Thread: thread, Tools: reg, ToolScope: bridgeScope})
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
