package chat

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/internal/testkit/mcpstdio/mcpstdiotest"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
	"github.com/agentdesk/agentdesk/worker"
)

// The tool bridge, the session's MCP servers and its limits through the
// engine and the Claude driver, with the real CLI and the fake API.

// serve plays a provider named name of tools in session s1: each call is
// answered with answer's result.
func serve(t *testing.T, reg *toolbridge.Registry, name string, tools []toolbridge.Tool, answer func(tool string, input json.RawMessage) toolbridge.Result) {
	t.Helper()
	p := reg.Connect(name)
	if _, err := p.Register("s1", tools); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-p.Done():
				return
			case b := <-p.Frames():
				var f struct {
					Type, CallID, Tool string
					Input              json.RawMessage
				}
				if json.Unmarshal(b, &f) == nil && f.Type == toolbridge.TypeCall {
					_ = p.Answer(f.CallID, answer(f.Tool, f.Input))
				}
			}
		}
	}()
	t.Cleanup(func() {
		p.Close()
		<-done
	})
}

func echoTool() toolbridge.Tool {
	return toolbridge.Tool{Name: "echo", Description: "Echo text back from the page.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

// requestTools are the names of the tools of an API request.
func requestTools(r fakeapi.Request) []string {
	var names []string
	tools, _ := r.Body["tools"].([]any)
	for _, tl := range tools {
		if m, ok := tl.(map[string]any); ok {
			name, _ := m["name"].(string)
			names = append(names, name)
		}
	}
	return names
}

// TestRealBridgeToolThroughEngine: a chat's agent sees the tools a
// provider registered for its session (inline, not deferred), its
// permission request names the provider, and the provider's answer
// reaches the model.
func TestRealBridgeToolThroughEngine(t *testing.T) {
	s := newReal(t)
	reg := toolbridge.New(toolbridge.Options{})
	serve(t, reg, "grid page", []toolbridge.Tool{echoTool()}, func(_ string, in json.RawMessage) toolbridge.Result {
		var x struct{ Text string }
		_ = json.Unmarshal(in, &x)
		return toolbridge.TextResult("the page says " + x.Text)
	})
	h := s.harness(t, harnessOptions{tools: reg})
	a := attach(t, h.rt, "")
	send(t, h, `call mcp__agentdesk__echo {"text":"hello bridge"}`)
	req := a.until(isType("permission-request"))
	var perm struct {
		ToolName, Description string
	}
	if err := json.Unmarshal(req.raw, &perm); err != nil {
		t.Fatal(err)
	}
	if perm.ToolName != "mcp__agentdesk__echo" || !strings.Contains(perm.Description, "grid page") {
		t.Errorf("permission request %s: want the tool and its provider", req.raw)
	}
	if err := h.rt.AnswerPermission(req.RequestID, "allow", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if sub, _ := resultText(t, a.until(isResult)); sub != "success" {
		t.Errorf("result %s", sub)
	}
	last := s.lastRequest(t)
	if !strings.Contains(allText(last), "the page says hello bridge") {
		t.Errorf("the provider's answer did not reach the model: %.2000s", allText(last))
	}
	if !slices.Contains(requestTools(last), "mcp__agentdesk__echo") {
		t.Errorf("the tool is not inline in the request: %v", requestTools(last))
	}
}

// TestRealBridgeToolAddedAndAllowed: a tool registered after the agent
// started reaches it without a restart, and an allowed tool (the
// worker's allowedTools) is called without asking.
func TestRealBridgeToolAddedAndAllowed(t *testing.T) {
	s := newReal(t)
	reg := toolbridge.New(toolbridge.Options{})
	h := s.harness(t, harnessOptions{tools: reg, allowed: []string{"mcp__agentdesk__*"}})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	a.until(isResult)
	pid := h.rt.slot.pid()
	serve(t, reg, "late page", []toolbridge.Tool{echoTool()}, func(string, json.RawMessage) toolbridge.Result {
		return toolbridge.TextResult("late answer")
	})
	send(t, h, `call mcp__agentdesk__echo {"text":"x"}`)
	a.until(isResult)
	for _, f := range a.frames {
		if f.Type == "permission-request" {
			t.Errorf("an allowed tool asked: %s", f.raw)
		}
	}
	if !strings.Contains(allText(s.lastRequest(t)), "late answer") {
		t.Errorf("the late tool's answer did not reach the model")
	}
	if got := h.rt.slot.pid(); got != pid {
		t.Errorf("the agent was restarted (pid %d, then %d)", pid, got)
	}
}

// TestRealSessionMCPServer: an MCP server of the session (a stdio
// program) is listed by the running agent beside agentdesk's own, its
// tool answers, and it is turned off and on live; one turned off with
// the agent stopped starts off.
func TestRealSessionMCPServer(t *testing.T) {
	bin, err := mcpstdiotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := newReal(t)
	ext := worker.MCPServer{Name: "ext", Type: worker.MCPStdio, Command: bin, Enabled: true}
	h := s.harness(t, harnessOptions{tools: toolbridge.New(toolbridge.Options{}), mcp: []worker.MCPServer{ext},
		allowed: []string{"mcp__ext__ping"}})
	a := attach(t, h.rt, "")
	send(t, h, "call mcp__ext__ping {}")
	a.until(isResult)
	if !strings.Contains(allText(s.lastRequest(t)), "pong") {
		t.Errorf("the session's server did not answer: %.2000s", allText(s.lastRequest(t)))
	}
	st := mcpState(t, h, "ext")
	if st.Status != "connected" || !slices.Equal(st.Tools, []string{"ping"}) {
		t.Errorf("ext: %+v", st)
	}
	if own := mcpState(t, h, "agentdesk"); own.Status != "connected" {
		t.Errorf("agentdesk's own server: %+v", own)
	}
	if err := h.rt.ToggleMCP(t.Context(), "ext", false); err != nil {
		t.Fatal(err)
	}
	if st := mcpState(t, h, "ext"); st.Status != "disabled" {
		t.Errorf("after turning it off: %+v", st)
	}
	if err := h.rt.ToggleMCP(t.Context(), "nope", false); err == nil || !strings.Contains(err.Error(), "no MCP server") {
		t.Errorf("toggle an unknown server: %v", err)
	}
	// Stored off: the next start runs without it.
	ext.Enabled = false
	h.rt.SetMCPServers([]worker.MCPServer{ext})
	pid := h.rt.slot.pid()
	send(t, h, "hello again")
	a.until(isResult)
	if h.rt.slot.pid() == pid {
		t.Fatal("the idle agent was not started again with the new servers")
	}
	if st := mcpState(t, h, "ext"); st.Name != "" {
		t.Errorf("a server stored off runs: %+v", st)
	}
}

// mcpState is the running agent's report of server name (zero when it has
// none).
func mcpState(t *testing.T, h *harness, name string) worker.MCPStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitFor)
	defer cancel()
	list, err := h.rt.MCPStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range list {
		if st.Name == name {
			return st
		}
	}
	return worker.MCPStatus{}
}

// TestRealLimitsThroughEngine: the worker's limits reach the CLI (the
// appended prompt, the turn limit, which ends a turn as a limit and not
// as a crash); changed limits start an idle agent again; a budget spent
// before stores the limit without starting an agent.
func TestRealLimitsThroughEngine(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{limits: worker.Limits{AppendSystemPrompt: "APPENDED-MARKER-26", MaxTurns: 1}})
	a := attach(t, h.rt, "")
	send(t, h, "bash:ls") // ls runs without asking
	if sub, _ := resultText(t, a.until(isResult)); sub != "error_max_turns" {
		t.Errorf("result %s, want error_max_turns", sub)
	}
	if !strings.Contains(string(s.api.MessageRequests()[0].RawBody), "APPENDED-MARKER-26") {
		t.Error("the appended prompt is not in the request")
	}
	for _, f := range a.frames {
		if f.Type == "exit" || f.Type == "error" {
			t.Errorf("a limit showed as %s: %s", f.Type, f.raw)
		}
	}
	pid := h.rt.slot.pid()
	h.rt.SetLimits(worker.Limits{AppendSystemPrompt: "SECOND-MARKER-26"}, nil)
	send(t, h, "hello")
	a.until(isResult)
	if h.rt.slot.pid() == pid {
		t.Error("the idle agent was not started again with the new limits")
	}
	if body := string(s.lastRequest(t).RawBody); !strings.Contains(body, "SECOND-MARKER-26") || strings.Contains(body, "APPENDED-MARKER-26") {
		t.Error("the resumed conversation does not run with the new prompt")
	}
}

// TestBudgetSpent: a conversation that spent its budget (across earlier
// processes) gets the limit as its turn's result, and no agent starts.
func TestBudgetSpent(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{limits: worker.Limits{MaxBudgetUSD: 0.5},
		spent: func() (float64, error) { return 0.75, nil }})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	res := a.until(isResult)
	var r struct {
		Subtype string   `json:"subtype"`
		Errors  []string `json:"errors"`
	}
	if err := json.Unmarshal(res.Raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.Subtype != "error_max_budget_usd" || len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "$0.50 budget") {
		t.Errorf("result %s", res.Raw)
	}
	if n := len(s.api.MessageRequests()); n != 0 || h.rt.slot.pid() != 0 {
		t.Errorf("an agent ran: %d API requests, pid %d", n, h.rt.slot.pid())
	}
	if h.rt.journal.busy() {
		t.Error("the turn did not end")
	}
	if _, err := h.rt.Capabilities(t.Context()); !errors.Is(err, worker.ErrConflict) || !strings.Contains(err.Error(), "budget") {
		t.Errorf("capabilities with the budget spent: %v", err)
	}
}

// TestBudgetLeftPassed: a budget partly spent gives the agent what is
// left, which the CLI holds (the fake API's first reply costs more).
func TestBudgetLeftPassed(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{limits: worker.Limits{MaxBudgetUSD: 0.5},
		spent: func() (float64, error) { return 0.4999, nil }})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	if sub, _ := resultText(t, a.until(isResult)); sub != "error_max_budget_usd" {
		t.Errorf("result %s, want error_max_budget_usd from the CLI", sub)
	}
	if n := len(s.api.MessageRequests()); n == 0 {
		t.Error("the agent made no request")
	}
}

// TestRealBridgeCallCancelled: Cancel during a call of a provider's tool
// ends the turn and tells the provider to cancel the call; the agent
// stays usable. Stopping the worker during a call cancels it too.
func TestRealBridgeCallCancelled(t *testing.T) {
	s := newReal(t)
	reg := toolbridge.New(toolbridge.Options{})
	p := reg.Connect("slow page")
	if _, err := p.Register("s1", []toolbridge.Tool{echoTool()}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := s.harness(t, harnessOptions{tools: reg, allowed: []string{"mcp__agentdesk__echo"}})
	a := attach(t, h.rt, "")
	next := func(want string) string {
		t.Helper()
		select {
		case b := <-p.Frames():
			var f struct{ Type, CallID, Reason string }
			if err := json.Unmarshal(b, &f); err != nil || f.Type != want {
				t.Fatalf("provider got %s, want a %s", b, want)
			}
			return f.CallID + "/" + f.Reason
		case <-time.After(waitFor):
			t.Fatalf("the provider got no %s", want)
			return ""
		}
	}
	send(t, h, `call mcp__agentdesk__echo {"text":"x"}`)
	call, _, _ := strings.Cut(next(toolbridge.TypeCall), "/")
	if _, err := h.rt.Cancel(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := next(toolbridge.TypeCancel); got != call+"/cancelled" {
		t.Errorf("cancel %q, want %s/cancelled", got, call)
	}
	a.until(isResult)
	send(t, h, "hello")
	if sub, text := resultText(t, a.until(isResult)); sub != "success" {
		t.Errorf("after the cancel: %s %s", sub, text)
	}

	send(t, h, `call mcp__agentdesk__echo {"text":"y"}`)
	call, _, _ = strings.Cut(next(toolbridge.TypeCall), "/")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := h.rt.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := strings.Cut(next(toolbridge.TypeCancel), "/"); got != call {
		t.Errorf("cancel of %q after Stop, want %s", got, call)
	}
}
