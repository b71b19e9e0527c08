package chat

import (
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/worker"
)

// permFields are the permission-response fields agentdesk added to
// API.md's (docs/api-extensions.md, "Live settings, plans and rules").
type permFields struct {
	// UpdatedPermissions goes with an allow: the CLI's permission updates
	// (a suggestion of the request, or a setMode).
	UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
}

// permUpdate is one of the CLI's permission updates (claude-cli.md §6:
// addRules, replaceRules, removeRules, setMode, addDirectories, …). It is
// passed to the CLI as the client sent it; agentdesk reads the fields it
// acts on.
type permUpdate struct {
	raw         json.RawMessage
	Type        string `json:"type"`
	Mode        string `json:"mode"`
	Behavior    string `json:"behavior"`
	Destination string `json:"destination"`
	Rules       []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent"`
	} `json:"rules"`
}

func (u permUpdate) MarshalJSON() ([]byte, error) { return u.raw, nil }

// maxUpdates bounds the updates of one answer (the CLI suggests three).
const maxUpdates = 16

var destinations = map[string]bool{"session": true, "localSettings": true, "projectSettings": true, "userSettings": true}

// parseUpdates checks a permission-response's updatedPermissions: a list
// of objects with a known type and destination, for an allow only.
func parseUpdates(behavior string, raw json.RawMessage) ([]permUpdate, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("updatedPermissions %s: %w", why, worker.ErrInvalid)
	}
	if behavior != "allow" {
		return nil, bad("go with \"allow\" only")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) > maxUpdates {
		return nil, bad(fmt.Sprintf("must be a list of at most %d permission updates", maxUpdates))
	}
	out := make([]permUpdate, 0, len(items))
	for _, it := range items {
		u := permUpdate{raw: it}
		if err := json.Unmarshal(it, &u); err != nil || u.Type == "" || !isObject(it) {
			return nil, bad("must hold objects with a \"type\"")
		}
		if !destinations[u.Destination] {
			return nil, bad(fmt.Sprintf("has an unknown destination %q", u.Destination))
		}
		if u.Type == "setMode" && !modes[u.Mode] {
			return nil, bad(fmt.Sprintf("has an unknown mode %q", u.Mode))
		}
		out = append(out, u)
	}
	return out, nil
}

var modes = map[string]bool{"default": true, "acceptEdits": true, "plan": true, "bypassPermissions": true}

// applied records what the CLI took with an answer: a session mode
// becomes the worker's mode (a plan approved "with auto-accept" starts
// the next CLI in acceptEdits too), and rules added are kept on the
// session (session ones are passed to the next CLIs).
func (r *Runtime) applied(updates []permUpdate) {
	var rules []worker.Rule
	mode := ""
	for _, u := range updates {
		switch {
		case u.Type == "setMode" && u.Destination == "session":
			mode = u.Mode
		case u.Type == "addRules" && u.Behavior == "allow":
			for _, x := range u.Rules {
				if x.ToolName != "" {
					rules = append(rules, worker.Rule{ToolName: x.ToolName, RuleContent: x.RuleContent, Destination: u.Destination})
				}
			}
		}
	}
	r.mu.Lock()
	if mode != "" {
		r.settings.PermissionMode = mode
	}
	r.rules = append(r.rules, worker.SessionRules(rules)...)
	r.mu.Unlock()
	if mode != "" && r.env.SaveMode != nil {
		if err := r.env.SaveMode(mode); err != nil {
			r.log.Error("store the permission mode of an answer", "err", err)
		}
	}
	if len(rules) > 0 && r.env.AddRules != nil {
		if err := r.env.AddRules(rules); err != nil {
			r.log.Error("store rules of an answer", "err", err)
		}
	}
}

// planHTML renders the plan of an ExitPlanMode request with the same
// sanitizing markdown renderer as messages; "" for other tools or when
// the plan is missing or does not render.
func planHTML(tool string, input json.RawMessage) string {
	if tool != "ExitPlanMode" {
		return ""
	}
	var in struct {
		Plan string `json:"plan"`
	}
	if json.Unmarshal(input, &in) != nil || in.Plan == "" || len(in.Plan) > maxHTMLText {
		return ""
	}
	h, err := markdown.Render(in.Plan)
	if err != nil {
		return ""
	}
	return h
}
