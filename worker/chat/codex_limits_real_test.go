package chat

import (
	"errors"
	"slices"
	"strings"
	"testing"

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
