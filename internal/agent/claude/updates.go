package claude

import (
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// permUpdate is one of the CLI's permission updates (claude-cli.md §6:
// addRules, replaceRules, removeRules, setMode, addDirectories, …), which
// an allow carries as "updatedPermissions". It is passed to the CLI as the
// client sent it; agentdesk reads the fields it acts on.
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

var modes = map[string]bool{"default": true, "acceptEdits": true, "plan": true, "bypassPermissions": true}

// parseUpdates checks a permission answer's updates: a list of objects
// with a known type and destination, for an allow only.
func parseUpdates(allow bool, raw json.RawMessage) ([]permUpdate, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("updatedPermissions %s: %w", why, wire.ErrInvalid)
	}
	if !allow {
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

func isObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// Updates checks an answer's updatedPermissions (agent.Updater) and says
// what the CLI takes with them: a session mode becomes the conversation's
// (a plan approved "with auto-accept" goes on in acceptEdits), and allow
// rules are added where their destination says.
func (d *Driver) Updates(allow bool, raw json.RawMessage) (agent.Updates, error) {
	updates, err := parseUpdates(allow, raw)
	if err != nil {
		return agent.Updates{}, err
	}
	var out agent.Updates
	for _, u := range updates {
		switch {
		case u.Type == "setMode" && u.Destination == "session":
			out.Mode = u.Mode
		case u.Type == "addRules" && u.Behavior == "allow":
			for _, x := range u.Rules {
				if x.ToolName != "" {
					out.Rules = append(out.Rules, agent.Rule{ToolName: x.ToolName, RuleContent: x.RuleContent, Destination: u.Destination})
				}
			}
		}
	}
	return out, nil
}
