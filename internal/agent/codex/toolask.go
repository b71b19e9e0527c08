package codex

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// Codex asks no approval for a dynamic tool (it sends item/tool/call
// directly, under any approval policy), so agentdesk asks the person
// itself before a call of the tool bridge runs, as a Claude chat does:
// the same permission request as a command's, its description naming the
// provider. The policy "never" and the allowed tools (mcp__agentdesk__<tool>,
// mcp__agentdesk__*, mcp__agentdesk, or "allow for this session") let
// the call run without asking (Translator.request).

const methodToolCall = "item/tool/call"

// bridgeServer is the tool bridge's server in rules: mcp__agentdesk
// allows all its tools, as in Claude's rules.
var bridgeServer = strings.TrimSuffix(BridgePrefix, "__")

// isBridgeRule reports whether an allowed tool names the bridge's tools.
func isBridgeRule(s string) bool {
	return s == bridgeServer || (strings.HasPrefix(s, BridgePrefix) && !strings.Contains(s, "("))
}

// bridgeAllowed reports whether allowed lets the bridge's tool name run
// without asking.
func bridgeAllowed(allowed []Rule, name string) bool {
	for _, r := range []Rule{{Tool: name}, {Tool: BridgePrefix + "*"}, {Tool: bridgeServer}} {
		if slices.Contains(allowed, r) {
			return true
		}
	}
	return false
}

// toolAsk is the permission request for the dynamic tool call m; who
// names the provider that would answer it ("" for none). The approval
// holds the call, which runs once allowed.
func toolAsk(m Msg, who func(tool string) string) (approval, *Request) {
	c := params[toolCall](m.Params)
	name := BridgePrefix + c.Tool
	input := c.Arguments
	if len(input) == 0 || input[0] != '{' {
		input = json.RawMessage(`{}`)
	}
	rule := Rule{Tool: name}
	call := m
	desc := "Provided by " + cmp.Or(who(c.Tool), "no provider connected") + "."
	return approval{rule: rule, call: &call}, &Request{Tool: name, Input: input, Description: desc,
		ToolUseID: c.CallID, Suggestions: sessionSuggestion(rule)}
}

// deniedCall is the result Codex gets for a call the person denied: an
// error the model reads, with the person's reason.
func deniedCall(tool, message string) map[string]any {
	text := cmp.Or(strings.TrimSuffix(message, "."), "The user denied this tool use") + ". " + tool + " did not run."
	return response(toolbridge.ErrorResult(text))
}
