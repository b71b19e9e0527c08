package worker

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Rule is a permission rule a person added from a permission request's
// suggestion ("Always allow"), kept on the session so it can be shown and
// removed. Destination is the CLI's: "session" rules live in the CLI
// process, and agentdesk passes them again (--allowedTools) to every CLI
// it starts for the session; the others ("localSettings",
// "projectSettings", "userSettings") the CLI wrote to that settings file.
type Rule struct {
	ID          string    `json:"id"`
	ToolName    string    `json:"toolName"`
	RuleContent string    `json:"ruleContent,omitempty"`
	Destination string    `json:"destination"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Spec is the rule as the CLI writes it, e.g. Bash(npm test).
func (r Rule) Spec() string {
	if r.RuleContent == "" {
		return r.ToolName
	}
	return r.ToolName + "(" + r.RuleContent + ")"
}

func (r Rule) same(o Rule) bool {
	return r.ToolName == o.ToolName && r.RuleContent == o.RuleContent && r.Destination == o.Destination
}

// RuleSetter is an agent runtime that can be told the session's rules
// changed (one was removed). A CLI cannot drop a rule while it runs, so
// the runtime ends an idle CLI (the next message resumes the conversation
// in a CLI started with the remaining rules) and refuses, with
// ErrAgentBusy, while a turn runs.
type RuleSetter interface {
	SetRules(ctx context.Context, rules []Rule) error
}

// SessionRules returns the session-destination rules of rules: the ones
// agentdesk passes to each CLI it starts.
func SessionRules(rules []Rule) []Rule {
	var out []Rule
	for _, r := range rules {
		if r.Destination == "session" {
			out = append(out, r)
		}
	}
	return out
}

// addRules records rules on the session (each once).
func (t *table) addRules(sid string, rules []Rule) error {
	_, err := t.changeSession(sid, func(s *Session) {
		for _, r := range rules {
			dup := false
			for _, have := range s.PermissionRules {
				dup = dup || have.same(r)
			}
			if !dup {
				r.ID, r.CreatedAt = uuid.Must(uuid.NewV7()).String(), t.now()
				s.PermissionRules = append(append([]Rule(nil), s.PermissionRules...), r)
			}
		}
	})
	return err
}

// RemoveRule removes a rule the session recorded. A session rule is
// dropped from the CLI that drives the conversation first (see
// RuleSetter); a rule the CLI wrote to a settings file cannot be removed
// from here (409 conflict: the message names the file).
func (a *AgentSettings) RemoveRule(ctx context.Context, sid, rid string) (Session, error) {
	lock, err := a.m.switchLock(sid)
	if err != nil {
		return Session{}, err
	}
	lock.Lock()
	defer lock.Unlock()
	sess, err := a.m.Session(sid)
	if err != nil {
		return Session{}, err
	}
	var left []Rule
	var found *Rule
	for _, r := range sess.PermissionRules {
		if r.ID == rid {
			found = &r
		} else {
			left = append(left, r)
		}
	}
	if found == nil {
		return Session{}, fmt.Errorf("rule %q: %w", rid, ErrNotFound)
	}
	if len(left) == 0 {
		left = nil // none: null, as for a session that never had one
	}
	if found.Destination != "session" {
		return Session{}, fmt.Errorf("Claude saved this rule in its %s file (%s); remove it there: %w", found.Destination, settingsFile(found.Destination), ErrConflict)
	}
	if err := a.dropFromAgent(ctx, sid, SessionRules(left)); err != nil {
		return Session{}, err
	}
	return a.m.changeSession(sid, func(s *Session) { s.PermissionRules = left })
}

// dropFromAgent tells the session's driving agent runtime its new rules.
func (a *AgentSettings) dropFromAgent(ctx context.Context, sid string, rules []Rule) error {
	a.m.mu.RLock()
	st, ok := a.m.sessions[sid]
	var rt Runtime
	if ok {
		if ws := a.m.drivingAgentLocked(st); ws != nil {
			rt = ws.rt
		}
	}
	a.m.mu.RUnlock()
	if rs, ok := rt.(RuleSetter); ok {
		return rs.SetRules(ctx, rules)
	}
	return nil
}

func settingsFile(dest string) string {
	switch dest {
	case "localSettings":
		return ".claude/settings.local.json in the project"
	case "projectSettings":
		return ".claude/settings.json in the project"
	case "userSettings":
		return "~/.claude/settings.json"
	}
	return "its settings"
}
