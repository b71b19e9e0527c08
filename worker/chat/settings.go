package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

var (
	_ worker.SettingsApplier = (*Runtime)(nil)
	_ worker.RuleSetter      = (*Runtime)(nil)
)

// startFlags returns what the next CLI starts with: the chosen settings,
// and the worker's allowed tools plus the session's rules.
func (r *Runtime) startFlags() (worker.Settings, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	tools := append([]string(nil), r.env.Info.AllowedTools...)
	for _, rule := range r.rules {
		tools = append(tools, rule.Spec())
	}
	return r.settings, tools
}

// ApplySettings gives a running CLI the new model and permission mode
// through the control protocol and keeps them for the CLIs started later.
// A change the CLI refuses (bypassPermissions in a CLI not started with
// it) returns an error wrapping worker.ErrConflict with the CLI's reason,
// and nothing changes. sendMu keeps a CLI from starting meanwhile with the
// old settings.
func (r *Runtime) ApplySettings(ctx context.Context, next worker.Settings) error {
	if r.readOnly {
		return fmt.Errorf("this worker no longer drives the conversation: %w", worker.ErrNotRunning)
	}
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	p, cur := r.proc, r.settings
	r.mu.Unlock()
	if p != nil {
		if err := r.applyLive(ctx, p, cur, next); err != nil {
			return err
		}
		if next.Model != cur.Model {
			// The CLI took it; its next init names the model in full.
			r.noteInForce(agent.Settings{Model: next.Model})
		}
	}
	r.mu.Lock()
	r.settings = next
	r.mu.Unlock()
	return nil
}

// applyLive gives p the changes; an agent that exited meanwhile is no
// failure (the next one starts with the new settings).
func (r *Runtime) applyLive(ctx context.Context, p agent.Conn, cur, next worker.Settings) error {
	from := agent.Settings{Model: cur.Model, PermissionMode: cur.PermissionMode}
	to := agent.Settings{Model: next.Model, PermissionMode: next.PermissionMode}
	if err := p.Apply(ctx, from, to); err != nil && !errors.Is(err, agent.ErrExited) {
		return err
	}
	return nil
}

// SetRules replaces the session rules passed to the CLIs this worker
// starts. The running CLI keeps a rule it was given until it ends, so an
// idle one is ended now (the next message resumes the conversation in a
// new CLI); while a turn runs nothing changes and ErrAgentBusy is
// returned.
func (r *Runtime) SetRules(ctx context.Context, rules []worker.Rule) error {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	if r.journal.busy() {
		return fmt.Errorf("a turn is running; remove the rule once it ends: %w", worker.ErrAgentBusy)
	}
	r.mu.Lock()
	p := r.proc
	r.rules = append([]worker.Rule(nil), rules...)
	r.retired = p
	r.mu.Unlock()
	if p == nil {
		return nil
	}
	if err := p.Close(ctx); err != nil {
		r.log.Warn("end claude to drop a rule", "err", err)
	}
	r.forget(p)
	return nil
}
