package chat

import (
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// defaultDeny is the message the model reads when a person denies a tool.
const defaultDeny = "The user denied this tool use"

// permission is a request of the agent waiting for a person (a tool call,
// questions, a plan).
type permission struct {
	id       string
	tool     string
	kind     agent.RequestKind
	proc     agent.Conn // the agent that asked: only it can be answered; nil for one stored before a restart (pending.go)
	input    json.RawMessage
	frame    []byte // the permission-request frame
	answered bool   // guarded by the journal's pubMu: an answer is on its way
}

// newPermission is the pending request q of agent p, with its frame.
func newPermission(p agent.Conn, q *agent.Request) (*permission, error) {
	if q == nil || q.ID == "" {
		return nil, fmt.Errorf("a request without an id")
	}
	input := q.Input
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage(`{}`)
	}
	f := wire.Permission{
		RequestID: q.ID, ToolName: q.Tool,
		Input: input, Description: q.Description, ToolUseID: q.ToolUseID,
		BlockedPath: q.BlockedPath, RequiresUserInteraction: q.RequiresUserInteraction,
		PermissionSuggestions: q.Suggestions,
	}
	if q.Kind == agent.RequestPlan {
		f.PlanHTML = planHTML(q.Plan)
	}
	frame, err := wire.PermissionRequest(f)
	if err != nil {
		return nil, fmt.Errorf("encode permission request: %w", err)
	}
	return &permission{id: q.ID, tool: q.Tool, kind: q.Kind, proc: p, input: input, frame: frame}, nil
}

// planHTML renders the plan of a plan request with the same sanitizing
// markdown renderer as messages; "" when the plan is missing, too long or
// does not render.
func planHTML(plan string) string {
	if plan == "" || len(plan) > maxHTMLText {
		return ""
	}
	h, err := markdown.Render(plan)
	if err != nil {
		return ""
	}
	return h
}

func isObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}
