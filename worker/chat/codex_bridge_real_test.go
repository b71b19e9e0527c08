package chat

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// TestCodexChatBridgeTool: a Codex chat is given the tools a provider
// registered for its session as dynamic tools; the model's call waits for
// the person (a permission request naming the provider, as a Claude
// chat's), then reaches the provider, its answer reaches the model (the
// function_call_output), and the chat stores the call as the bridge's
// tool card, mcp__agentdesk__<tool>, with the provider's answer as its
// result.
func TestCodexChatBridgeTool(t *testing.T) {
	s := newCodexSetup(t)
	reg := toolbridge.New(toolbridge.Options{})
	var calls atomic.Int32
	serve(t, reg, "grid page", []toolbridge.Tool{echoTool()}, func(_ string, in json.RawMessage) toolbridge.Result {
		calls.Add(1)
		var x struct{ Text string }
		_ = json.Unmarshal(in, &x)
		return toolbridge.TextResult("the page says " + x.Text)
	})
	h := s.harness(t, harnessOptions{tools: reg})
	a := attach(t, h.rt, "")
	send(t, h, `tool:echo {"text":"hello bridge"}`)
	req := a.until(isType("permission-request"))
	var desc struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(req.raw, &desc); err != nil || req.ToolName != "mcp__agentdesk__echo" || desc.Description != "Provided by grid page." {
		t.Fatalf("request %s", req.raw)
	}
	if err := h.rt.RespondPermission(req.RequestID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	res := a.until(isResult)
	if sub, text := resultOf(t, res); sub != "success" || text != "Tool finished. Output: 'the page says hello bridge'" {
		t.Fatalf("result %s", res.raw)
	}
	var use, result bool
	for _, f := range a.frames {
		if !f.stored() {
			continue
		}
		raw := string(f.Raw)
		use = use || (f.Message.Type == "assistant" && strings.Contains(raw, `"name":"mcp__agentdesk__echo"`))
		result = result || (f.Message.Type == "user" && strings.Contains(raw, `"tool_result"`) && strings.Contains(raw, "the page says hello bridge"))
	}
	if !use || !result {
		t.Fatalf("tool card stored %v, its result %v: %s", use, result, kinds(a.frames))
	}
	var outs []string
	for _, r := range s.api.ResponseRequests() {
		for _, it := range r.Input() {
			if it.Type == "function_call_output" {
				outs = append(outs, it.OutputText())
			}
		}
	}
	if len(outs) != 1 || outs[0] != "the page says hello bridge" {
		t.Fatalf("the model was sent %q", outs)
	}

	// Denied: the provider is not called; the model reads the reason.
	send(t, h, `tool:echo {"text":"not this"}`)
	req = a.until(isType("permission-request"))
	if err := h.rt.RespondPermission(req.RequestID, "deny", "not this one", nil); err != nil {
		t.Fatal(err)
	}
	a.until(isResult)
	if n := calls.Load(); n != 1 {
		t.Errorf("the provider was called %d times, want once (the allowed call)", n)
	}
	last := s.api.ResponseRequests()
	var denied string
	for _, it := range last[len(last)-1].Input() {
		if it.Type == "function_call_output" {
			denied = it.OutputText()
		}
	}
	if denied != "not this one. mcp__agentdesk__echo did not run." {
		t.Errorf("the model was sent %q for the denied call", denied)
	}
}
