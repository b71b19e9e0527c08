package codex

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// TestThreadConfig: servers become mcp_servers entries (stdio with its
// env, HTTP with its headers), rules about a server's tools change its
// entry, added directories are writable roots; nothing gives nil.
func TestThreadConfig(t *testing.T) {
	if ThreadConfig(nil, nil, []string{"Bash"}, []string{"mcp__x__*"}) != nil {
		t.Fatal("no servers, no roots: want nil")
	}
	servers := []agent.MCPServer{
		{Name: "cli", Type: "stdio", Command: "srv", Args: []string{"-v"}, Env: map[string]string{"T": "secret"}},
		{Name: "web", Type: "http", URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer s"}},
		{Name: "gone", Type: "stdio", Command: "x"},
	}
	got := ThreadConfig(servers, []string{"/data"}, []string{"mcp__web__*", "mcp__cli__ping"}, []string{"mcp__gone", "mcp__cli__rm"})
	want := map[string]any{
		"mcp_servers": map[string]any{
			"cli": map[string]any{"command": "srv", "args": []string{"-v"}, "env": map[string]string{"T": "secret"}, "disabled_tools": []string{"rm"}},
			"web": map[string]any{"url": "https://h/mcp", "http_headers": map[string]string{"Authorization": "Bearer s"}, "default_tools_approval_mode": "approve"},
		},
		"sandbox_workspace_write": map[string]any{"writable_roots": []string{"/data"}},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("got  %s\nwant %s", g, w)
	}
}

// TestRuleAllows: exact commands, Claude's prefix rules, bare tools.
func TestRuleAllows(t *testing.T) {
	bash := func(c string) Rule { return Rule{Tool: "Bash", Content: c} }
	for _, c := range []struct {
		rule string
		ask  Rule
		want bool
	}{
		{"Bash(npm test)", bash("npm test"), true},
		{"Bash(npm test)", bash("npm test -v"), false},
		{"Bash(npm test *)", bash("npm test -v"), true},
		{"Bash(npm test *)", bash("npm test"), true},
		{"Bash(npm test *)", bash("npm tests"), false},
		{"Bash(*)", bash("rm -rf x"), true},
		{"Bash", bash("ls"), true},
		{"Edit", Rule{Tool: "Edit", Content: "a.go"}, true},
		{"Edit(a.go)", Rule{Tool: "Edit", Content: "b.go"}, false},
		{"Bash", Rule{Tool: "Edit", Content: "a.go"}, false},
		{"Read", bash("ls"), false},
	} {
		r, ok := readRule(c.rule)
		if got := ok && allowedBy([]Rule{r}, c.ask); got != c.want {
			t.Errorf("%s allows %+v: %v, want %v", c.rule, c.ask, got, c.want)
		}
	}
}

// TestLimiterTurns: the step at the limit lets its tools run, then asks
// to stop; a step of text only at the limit ends the turn itself; the
// budget stops at the request that reaches it.
func TestLimiterTurns(t *testing.T) {
	usage := func(total int) Msg {
		raw, _ := json.Marshal(map[string]any{"tokenUsage": map[string]any{
			"total": map[string]int{"inputTokens": total, "outputTokens": 10, "totalTokens": total + 10},
			"last":  map[string]int{"inputTokens": 100, "outputTokens": 10, "totalTokens": 110}}})
		return Msg{Method: "thread/tokenUsage/updated", Params: raw}
	}
	item := func(method, typ, id string) Msg {
		raw, _ := json.Marshal(map[string]any{"item": map[string]string{"type": typ, "id": id}})
		return Msg{Method: method, Params: raw}
	}
	started := Msg{Method: "turn/started", Params: json.RawMessage(`{}`)}

	tr := NewTranslator(Thread{})
	tr.lim.Limits = Limits{MaxTurns: 1}
	// A tool that starts before the step's usage and ends after it.
	for i, m := range []Msg{started, item("item/started", "commandExecution", "c1"), usage(100)} {
		if tr.lim.watch(m, "gpt-fake") {
			t.Fatalf("stopped at message %d", i)
		}
	}
	if !tr.lim.watch(item("item/completed", "commandExecution", "c1"), "gpt-fake") || tr.lim.hit != SubtypeMaxTurns {
		t.Fatal("the tool at the limit ran: want a stop")
	}
	// Text only: the turn ends by itself.
	for i, m := range []Msg{started, item("item/started", "agentMessage", "m1"), usage(200), item("item/completed", "agentMessage", "m1")} {
		if tr.lim.watch(m, "gpt-fake") {
			t.Fatalf("text only: stopped at message %d", i)
		}
	}
	// The same total again is no new request.
	tr.lim.Limits = Limits{MaxTurns: 2}
	for i, m := range []Msg{started, usage(300), usage(300)} {
		if tr.lim.watch(m, "gpt-fake") {
			t.Fatalf("a repeated total: stopped at message %d", i)
		}
	}
	if tr.lim.steps != 1 {
		t.Fatalf("%d steps, want 1", tr.lim.steps)
	}
	// The budget, at gpt-5's price ($0.0002025 a request here).
	b := NewTranslator(Thread{})
	b.lim.Limits = Limits{MaxBudgetUSD: 0.0003}
	if b.lim.watch(started, "gpt-5") || b.lim.watch(usage(100), "gpt-5") || b.lim.spentAll() {
		t.Fatal("stopped below the budget")
	}
	if !b.lim.watch(usage(200), "gpt-5") || b.lim.hit != SubtypeMaxBudget || !b.lim.spentAll() {
		t.Fatal("the request that reached the budget did not stop the turn")
	}
}

// TestToggleIsARestart: Codex cannot turn a server of a running thread
// off or on: the answer is agent.ErrRestart, whose text says when.
func TestToggleIsARestart(t *testing.T) {
	err := (&conn{}).ToggleMCP(t.Context(), "x", false)
	if !errors.Is(err, agent.ErrRestart) {
		t.Fatalf("got %v", err)
	}
}
