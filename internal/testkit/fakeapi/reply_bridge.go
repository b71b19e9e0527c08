package fakeapi

import (
	"encoding/json"
	"regexp"
)

// A prompt "call mcp__<server>__<tool> {json}" makes the model call that
// MCP tool with that input (an object; {} when absent), as the recordings
// of agents.md section A did: the tool bridge's tests use it.
var callRe = regexp.MustCompile(`(?s)\bcall (mcp__[A-Za-z0-9_-]+)\s*(\{.*\})?`)

func bridgePlan(prompt string) (plan, bool) {
	m := callRe.FindStringSubmatch(prompt)
	if m == nil {
		return plan{}, false
	}
	input := map[string]any{}
	if m[2] != "" {
		if err := json.Unmarshal([]byte(m[2]), &input); err != nil {
			return textPlan("call", "That input is not a JSON object."), true
		}
	}
	return toolPlan("call", "Calling "+m[1]+".", m[1], input), true
}
