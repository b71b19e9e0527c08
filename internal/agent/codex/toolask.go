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
// the call run without asking.

const methodToolCall = "item/tool/call"

// bridgeServer is the tool bridge's server in rules: mcp__agentdesk
// allows all its tools, as in Claude's rules.
var bridgeServer = strings.TrimSuffix(BridgePrefix, "__")

// isBridgeRule reports whether an allowed tool names the bridge's tools.
func isBridgeRule(s string) bool {
	return s == bridgeServer || (strings.HasPrefix(s, BridgePrefix) && !strings.Contains(s, "("))
}

// askTool holds the dynamic tool call m for the person's answer and
// returns the request, or nil when the call may run now. who is the
// provider that would answer it, "" for none.
func (t *Translator) askTool(m Msg, who string) []Out {
	c := params[toolCall](m.Params)
	name := BridgePrefix + c.Tool
	if t.policy == "never" || t.toolAllowed(name) {
		return nil
	}
	if who == "" {
		who = "no provider connected"
	}
	input := c.Arguments
	if len(input) == 0 || input[0] != '{' {
		input = json.RawMessage(`{}`)
	}
	rule := Rule{Tool: name}
	call := m
	req := &Request{ID: t.newID(), Tool: name, Input: input, Description: "Provided by " + who + ".",
		ToolUseID: c.CallID, Suggestions: sessionSuggestion(rule)}
	t.asks[req.ID] = &approval{rpcID: m.ID, method: methodToolCall, rule: rule, call: &call}
	t.byRPC[string(m.ID)] = req.ID
	return []Out{{Kind: OutRequest, Request: req}}
}

func (t *Translator) toolAllowed(name string) bool {
	for _, r := range []Rule{{Tool: name}, {Tool: BridgePrefix + "*"}, {Tool: bridgeServer}} {
		if slices.Contains(t.allowed, r) {
			return true
		}
	}
	return false
}

// heldCall is the dynamic tool call request id holds, nil when id is
// not one.
func (t *Translator) heldCall(id string) *Msg {
	if ap, ok := t.asks[id]; ok {
		return ap.call
	}
	return nil
}

// deniedCall is the result Codex gets for a call the person denied: an
// error the model reads, with the person's reason when they gave one.
func deniedCall(tool, message string) map[string]any {
	text := cmp.Or(strings.TrimSuffix(message, "."), "The user denied this tool use") + ". " + tool + " did not run."
	return response(toolbridge.ErrorResult(text))
}
