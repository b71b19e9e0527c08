package chat

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/internal/testkit/mcpstdio/mcpstdiotest"
	"github.com/agentdesk/agentdesk/worker"
)

// TestCodexChatMCPServer: a Codex chat runs the session's MCP server
// (listed with its tool, called, allowed whole without asking); turning
// it off is stored, not live (Codex cannot), and the next message starts
// Codex again without it.
func TestCodexChatMCPServer(t *testing.T) {
	bin, err := mcpstdiotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := newCodexSetup(t)
	ext := worker.MCPServer{Name: "ext", Type: worker.MCPStdio, Command: bin, Enabled: true}
	h := s.harness(t, harnessOptions{mcp: []worker.MCPServer{ext}, allowed: []string{"mcp__ext__*"}})
	a := attach(t, h.rt, "")
	send(t, h, "tool:mcp__ext/ping")
	if sub, text := resultOf(t, a.until(isResult)); sub != "success" || !strings.Contains(text, "pong") {
		t.Fatalf("result %s %q", sub, text)
	}
	if st := mcpState(t, h, "ext"); st.Status != "connected" || !slices.Equal(st.Tools, []string{"ping"}) {
		t.Errorf("ext: %+v", st)
	}
	err = h.rt.ToggleMCP(t.Context(), "ext", false)
	if !errors.Is(err, worker.ErrNotFound) || !strings.Contains(err.Error(), "next message") {
		t.Fatalf("toggle: %v", err)
	}
	ext.Enabled = false
	h.rt.SetMCPServers([]worker.MCPServer{ext}) // what the manager stores
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

// TestCodexChatLimits: a Codex chat's limits through the engine: the
// appended prompt reaches the model, the turn limit ends a turn as a
// limit (not a crash).
func TestCodexChatLimits(t *testing.T) {
	s := newCodexSetup(t)
	h := s.harness(t, harnessOptions{limits: worker.Limits{AppendSystemPrompt: "APPENDED-MARKER-CODEX", MaxTurns: 1}})
	a := attach(t, h.rt, "")
	send(t, h, "bash: echo hi")
	if sub, _ := resultOf(t, a.until(isResult)); sub != "error_max_turns" {
		t.Errorf("result %s, want error_max_turns", sub)
	}
	if !strings.Contains(string(s.api.ResponseRequests()[0].RawBody), "APPENDED-MARKER-CODEX") {
		t.Error("the appended prompt is not in the request")
	}
	for _, f := range a.frames {
		if f.Type == "exit" || f.Type == "error" {
			t.Errorf("a limit showed as %s: %s", f.Type, f.raw)
		}
	}
}

// TestCodexChatBudget: a Codex chat gets what is left of the budget; the
// turn that reaches it ends as the limit (not a crash), and the next
// message gets the limit at once, without asking the model.
func TestCodexChatBudget(t *testing.T) {
	s := newCodexSetup(t)
	// gpt-5's price: each fake request costs $0.0002025; $0.0003 is left.
	o := harnessOptions{limits: worker.Limits{MaxBudgetUSD: 0.001}, spent: func() (float64, error) { return 0.0007, nil },
		driver: codex.NewDriver(codex.Config{Path: s.bin, Overrides: []string{`model="gpt-5"`}})}
	o.path, o.baseEnv, o.cwd = s.bin, s.env, s.cwd
	h := newHarness(t, o)
	a := attach(t, h.rt, "")
	for i, want := range []string{"success", "error_max_budget_usd", "error_max_budget_usd"} {
		send(t, h, "hello "+strconv.Itoa(i))
		if sub, _ := resultOf(t, a.until(isResult)); sub != want {
			t.Fatalf("turn %d: %s, want %s", i, sub, want)
		}
	}
	if n := len(s.api.ResponseRequests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	for _, f := range a.frames {
		if f.Type == "exit" || f.Type == "error" {
			t.Errorf("a limit showed as %s: %s", f.Type, f.raw)
		}
	}
}
