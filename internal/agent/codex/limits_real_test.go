package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
	"github.com/agentdesk/agentdesk/internal/testkit/mcpstdio/mcpstdiotest"
)

// The session's MCP servers and limits with the real CLI against the fake
// Responses API.

// TestRealMCPServer: a session's stdio MCP server reaches the thread
// (over the pipe: its secret env value is on no command line), is listed
// with its tool, and its tool answers the model.
func TestRealMCPServer(t *testing.T) {
	bin, err := mcpstdiotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, "")
	const secret = "sekrit-env-value-42"
	// Allowed whole, its tools run without asking (Codex asks for every
	// MCP tool call otherwise; under "never" it refuses them).
	cfg := ThreadConfig([]agent.MCPServer{{Name: "pinger", Type: "stdio", Command: bin, Env: map[string]string{"PINGER_TOKEN": secret}}},
		nil, []string{"mcp__pinger__*"}, nil)
	s, c := h.open(SessionOptions{Settings: Settings{Policy: "never"}, Config: cfg})
	list, err := s.MCPStatus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list, func(m MCPServerStatus) bool { return m.Name == "pinger" })
	if i < 0 || list[i].Status != "connected" || !slices.Equal(list[i].Tools, []string{"ping"}) {
		t.Fatalf("status %+v", list)
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(s.Ident().Pid) + "/cmdline")
	if err != nil || strings.Contains(string(cmdline), secret) || strings.Contains(string(cmdline), "pinger") {
		t.Fatalf("the command line %q (%v) names the server", cmdline, err)
	}
	if err := s.Send(t.Context(), Message{ID: "u-1", Text: "tool:mcp__pinger/ping"}); err != nil {
		t.Fatal(err)
	}
	r := decode(t, c.wait(t, "result", isResult))
	outs := toolOutputs(h)
	if r.Subtype != "success" || len(outs) != 1 || !strings.Contains(outs[0], "pong") {
		t.Fatalf("result %+v, tool outputs %q", r, outs)
	}
}

// TestRealMCPDisallowed: a tool disallowed is not among the server's
// tools, a server disallowed whole is not started.
func TestRealMCPDisallowed(t *testing.T) {
	bin, err := mcpstdiotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, "")
	servers := []agent.MCPServer{{Name: "pinger", Type: "stdio", Command: bin}, {Name: "other", Type: "stdio", Command: bin}}
	cfg := ThreadConfig(servers, nil, nil, []string{"mcp__pinger__ping", "mcp__other__*"})
	s, _ := h.open(SessionOptions{Config: cfg})
	list, err := s.MCPStatus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "pinger" || len(list[0].Tools) != 0 {
		t.Fatalf("status %+v", list)
	}
}

// TestRealDeveloperInstructions: the session's addition to the system
// prompt reaches the model as a developer message.
func TestRealDeveloperInstructions(t *testing.T) {
	h := newHarness(t, "")
	const marker = "APPENDED-MARKER-123"
	s, c := h.open(SessionOptions{DeveloperInstructions: marker})
	if err := s.Send(t.Context(), Message{ID: "u-1", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "result", isResult)
	reqs := h.api.ResponseRequests()
	found := false
	for _, it := range reqs[0].Input() {
		if it.Role == "developer" && strings.Contains(it.Text(), marker) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no developer message with the marker in %s", reqs[0].RawBody)
	}
}

// TestRealWritableRoots: a directory added to the session is writable in
// Codex's sandbox; another outside the work tree is not.
func TestRealWritableRoots(t *testing.T) {
	h := newHarness(t, "")
	added, other := t.TempDir(), t.TempDir()
	cfg := ThreadConfig(nil, []string{added}, nil, nil)
	// The test's directories are all under /tmp, which workspace-write
	// allows unless told not to.
	ww := cfg["sandbox_workspace_write"].(map[string]any)
	ww["exclude_slash_tmp"], ww["exclude_tmpdir_env_var"] = true, true
	s, c := h.open(SessionOptions{Settings: Settings{Policy: "never"}, Config: cfg})
	for _, dir := range []string{added, other} {
		if err := s.Send(t.Context(), Message{ID: "u-" + dir, Text: "bash: touch " + filepath.Join(dir, "made.txt")}); err != nil {
			t.Fatal(err)
		}
		c.wait(t, "result", isResult)
	}
	if _, err := os.Stat(filepath.Join(added, "made.txt")); err != nil {
		t.Errorf("the added directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "made.txt")); err == nil {
		t.Errorf("a directory not added was written")
	}
}

// TestRealMaxTurns: at the last step allowed, its tool runs, then the
// turn stops (the request that would go on is cut) and ends as
// error_max_turns; the next message starts a turn as usual.
func TestRealMaxTurns(t *testing.T) {
	h := newHarness(t, "")
	s, c := h.open(SessionOptions{Settings: Settings{Policy: "never"}, Limits: Limits{MaxTurns: 1}})
	if err := s.Send(t.Context(), Message{ID: "u-1", Text: "bash: echo " + fakeopenai.HoldNext}); err != nil {
		t.Fatal(err)
	}
	tr := decode(t, c.wait(t, "the tool's result", hasBlock(t, "tool_result")))
	if !strings.Contains(tr.Message.Content[0].Content, fakeopenai.HoldNext) {
		t.Fatalf("tool result %+v", tr)
	}
	var r struct {
		Subtype string   `json:"subtype"`
		IsError bool     `json:"is_error"`
		Errors  []string `json:"errors"`
	}
	json.Unmarshal(c.wait(t, "result", isResult).Raw, &r)
	if r.Subtype != SubtypeMaxTurns || !r.IsError || len(r.Errors) != 1 || r.Errors[0] != "Reached maximum number of turns (1)" {
		t.Fatalf("result %+v", r)
	}
	if err := s.Send(t.Context(), Message{ID: "u-2", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != "success" {
		t.Fatalf("the next turn: %+v", r)
	}
}

// TestRealMaxBudget: the turn whose request reaches the budget ends as
// error_max_budget_usd; the next message gets that result at once, and
// the model is not asked.
func TestRealMaxBudget(t *testing.T) {
	h := newHarness(t, "")
	// gpt-5's price: each fake request (80 fresh, 20 cached in, 10 out)
	// costs $0.0002025.
	s, c := h.open(SessionOptions{Settings: Settings{Model: "gpt-5"}, Limits: Limits{MaxBudgetUSD: 0.0003}})
	for i, want := range []string{"success", SubtypeMaxBudget, SubtypeMaxBudget} {
		if err := s.Send(t.Context(), Message{ID: "u-" + strconv.Itoa(i), Text: "hello"}); err != nil {
			t.Fatal(err)
		}
		if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != want {
			t.Fatalf("turn %d: %+v", i, r)
		}
	}
	if n := len(h.api.ResponseRequests()); n != 2 {
		t.Fatalf("%d requests, want 2: the last message must not reach the model", n)
	}
}

// TestRealResumeConfig: a thread resumed by a new process runs the MCP
// servers of that start; it keeps the developer instructions it started
// with (Codex records them in the thread and replays them), which is why
// the API refuses a change of a started Codex conversation's prompt.
func TestRealResumeConfig(t *testing.T) {
	bin, err := mcpstdiotest.Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, "")
	first, c := h.open(SessionOptions{DeveloperInstructions: "FIRST-MARKER"})
	if err := first.Send(t.Context(), Message{ID: "u-1", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "result", isResult)
	thread := first.Thread()
	first.Close(t.Context())
	cfg := ThreadConfig([]agent.MCPServer{{Name: "pinger", Type: "stdio", Command: bin}}, nil, nil, nil)
	s, c2 := h.open(SessionOptions{Thread: thread, DeveloperInstructions: "SECOND-MARKER", Config: cfg})
	if s.Thread() != thread || s.Resumed() != nil {
		t.Fatalf("not resumed: %q %v", s.Thread(), s.Resumed())
	}
	if err := s.Send(t.Context(), Message{ID: "u-2", Text: "hello again"}); err != nil {
		t.Fatal(err)
	}
	c2.wait(t, "result", isResult)
	reqs := h.api.ResponseRequests()
	if body := string(reqs[len(reqs)-1].RawBody); !strings.Contains(body, "FIRST-MARKER") || strings.Contains(body, "SECOND-MARKER") {
		t.Errorf("Codex changed how it resumes instructions: the API's refusal of a new prompt may go")
	}
	list, err := s.MCPStatus(t.Context())
	if err != nil || len(list) != 1 || list[0].Name != "pinger" {
		t.Errorf("status %+v %v", list, err)
	}
}
