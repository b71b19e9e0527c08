package chat

import (
	"encoding/json"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/worker"
)

// permFields are the permission-response fields agentdesk added to
// API.md's (docs/api-extensions.md, "Live settings, plans and rules").
type permFields struct {
	// UpdatedPermissions goes with an allow: the agent's permission
	// updates (a suggestion of the request, or a mode), checked by the
	// driver (agent.Updater).
	UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
}

// applied records what the agent took with an answer: a session mode
// becomes the worker's mode (a plan approved "with auto-accept" starts
// the next agent in acceptEdits too), and rules added are kept on the
// session (session ones are passed to the next agents).
func (r *Runtime) applied(u agent.Updates) {
	rules := make([]worker.Rule, 0, len(u.Rules))
	for _, x := range u.Rules {
		rules = append(rules, worker.Rule{ToolName: x.ToolName, RuleContent: x.RuleContent, Destination: x.Destination})
	}
	r.mu.Lock()
	if u.Mode != "" {
		r.settings.PermissionMode = u.Mode
	}
	r.rules = append(r.rules, worker.SessionRules(rules)...)
	r.mu.Unlock()
	if u.Mode != "" && r.env.SaveMode != nil {
		if err := r.env.SaveMode(u.Mode); err != nil {
			r.log.Error("store the permission mode of an answer", "err", err)
		}
	}
	if len(rules) > 0 && r.env.AddRules != nil {
		if err := r.env.AddRules(rules); err != nil {
			r.log.Error("store rules of an answer", "err", err)
		}
	}
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
