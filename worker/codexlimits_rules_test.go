package worker

import "testing"

// The tool rules a Codex chat takes, and those it refuses rather than
// ignore: one tool of an MCP server cannot be allowed (Codex approves a
// server's tools as a whole), while agentdesk's own bridge tools can.
func TestCheckCodexRules(t *testing.T) {
	for _, r := range []string{"Bash", "Bash(npm test *)", "Edit(a.go)", "mcp__github__*", "mcp__github", "mcp__my_server__*", "mcp__agentdesk__notify"} {
		if err := checkCodexRules([]string{r}, Limits{}); err != nil {
			t.Errorf("allowed %q: %v", r, err)
		}
	}
	for _, r := range []string{"mcp__github__create_issue", "Read", "WebFetch", "mcp__"} {
		if err := checkCodexRules([]string{r}, Limits{}); err == nil {
			t.Errorf("allowed %q was taken", r)
		}
	}
	for _, r := range []string{"mcp__github__create_issue", "mcp__github__*", "mcp__github", "mcp__agentdesk__notify"} {
		if err := checkCodexRules(nil, Limits{DisallowedTools: []string{r}}); err != nil {
			t.Errorf("disallowed %q: %v", r, err)
		}
	}
	for _, r := range []string{"Bash", "Bash(rm *)", "WebFetch"} {
		if err := checkCodexRules(nil, Limits{DisallowedTools: []string{r}}); err == nil {
			t.Errorf("disallowed %q was taken", r)
		}
	}
}
