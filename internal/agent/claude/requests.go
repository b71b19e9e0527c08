package claude

import (
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// The tools whose requests are not tool calls to allow: a plan to approve
// and questions for the person (claude-cli.md §6).
const (
	toolPlan     = "ExitPlanMode"
	toolQuestion = "AskUserQuestion"
)

// canUseTool is the request of a can_use_tool control_request.
type canUseTool struct {
	Request struct {
		ToolName                string          `json:"tool_name"`
		Input                   json.RawMessage `json:"input"`
		Description             string          `json:"description"`
		ToolUseID               string          `json:"tool_use_id"`
		PermissionSuggestions   json.RawMessage `json:"permission_suggestions"`
		BlockedPath             string          `json:"blocked_path"`
		RequiresUserInteraction *bool           `json:"requires_user_interaction"`
	} `json:"request"`
}

// newRequest reads a can_use_tool control_request.
func newRequest(l Line) (*agent.Request, error) {
	var c canUseTool
	if err := json.Unmarshal(l.Raw, &c); err != nil {
		return nil, fmt.Errorf("decode can_use_tool: %w", err)
	}
	if l.RequestID == "" {
		return nil, fmt.Errorf("can_use_tool without request_id")
	}
	q := c.Request
	r := &agent.Request{
		ID: l.RequestID, Kind: requestKind(q.ToolName), Tool: q.ToolName, Input: q.Input,
		Description: q.Description, ToolUseID: q.ToolUseID, BlockedPath: q.BlockedPath,
		RequiresUserInteraction: q.RequiresUserInteraction,
	}
	if len(r.Input) == 0 || string(r.Input) == "null" {
		r.Input = json.RawMessage(`{}`)
	}
	if s := q.PermissionSuggestions; len(s) > 0 && string(s) != "null" {
		r.Suggestions = s
	}
	if r.Kind == agent.RequestPlan {
		var in struct {
			Plan string `json:"plan"`
		}
		if json.Unmarshal(r.Input, &in) == nil {
			r.Plan = in.Plan
		}
	}
	return r, nil
}

func requestKind(tool string) agent.RequestKind {
	switch tool {
	case toolPlan:
		return agent.RequestPlan
	case toolQuestion:
		return agent.RequestQuestion
	}
	return agent.RequestTool
}

// RequestKind is the kind of a request of tool (agent.Records).
func (d *Driver) RequestKind(tool string) agent.RequestKind { return requestKind(tool) }
