package claude_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

func TestLimitArgs(t *testing.T) {
	got := claude.LimitArgs(claude.Limits{AppendSystemPrompt: "Be brief.", SnapshotOff: true, MaxTurns: 3, MaxBudgetUSD: 1.25,
		DisallowedTools: []string{"Bash(rm *)", " ", "WebFetch"}, AddDirs: []string{"/a", "/b"}, MCPConfig: `{"mcpServers":{}}`})
	want := []string{"--append-system-prompt", "Be brief.", "--system-prompt-snapshot", "off", "--max-turns", "3", "--max-budget-usd", "1.25",
		"--disallowedTools", "Bash(rm *),WebFetch", "--add-dir", "/a", "--add-dir", "/b", "--mcp-config", `{"mcpServers":{}}`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := claude.LimitArgs(claude.Limits{SnapshotOff: true}); len(got) != 0 {
		t.Errorf("no limits: %q", got)
	}
	if a := claude.Args(claude.Options{Limits: claude.Limits{MaxTurns: 2}}); !slices.Contains(a, "--max-turns") {
		t.Errorf("Args lacks the limits: %q", a)
	}
}

func TestMCPConfig(t *testing.T) {
	cfg := claude.MCPConfig(90*time.Second, []claude.MCPServer{
		{Name: "gh", Type: "stdio", Command: "npx", Args: []string{"-y", "gh"}, Env: map[string]string{"T": "x"}},
		{Name: "docs", Type: "http", URL: "https://d/mcp", Headers: map[string]string{"Authorization": "Bearer y"}},
	})
	var got map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(cfg), &got); err != nil {
		t.Fatal(err)
	}
	s := got["mcpServers"]
	if a := s["agentdesk"]; a["type"] != "sdk" || a["name"] != "agentdesk" || a["alwaysLoad"] != true || a["timeout"] != 90000.0 {
		t.Errorf("agentdesk %v", a)
	}
	if g := s["gh"]; g["type"] != "stdio" || g["command"] != "npx" || g["env"].(map[string]any)["T"] != "x" {
		t.Errorf("gh %v", g)
	}
	if d := s["docs"]; d["type"] != "http" || d["url"] != "https://d/mcp" || d["headers"].(map[string]any)["Authorization"] != "Bearer y" {
		t.Errorf("docs %v", d)
	}
}
