package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
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
			r.noteInForce(claude.InForce{Model: next.Model})
		}
	}
	r.mu.Lock()
	r.settings = next
	r.mu.Unlock()
	return nil
}

// applyLive sends the changes to p; when the mode is refused after the
// model changed, the model goes back.
func (r *Runtime) applyLive(ctx context.Context, p *claude.Process, cur, next worker.Settings) error {
	if next.Model != cur.Model {
		if err := refused(p.SetModel(ctx, next.Model)); err != nil {
			return err
		}
	}
	if next.PermissionMode != cur.PermissionMode {
		if err := refused(p.SetPermissionMode(ctx, next.PermissionMode)); err != nil {
			if next.Model != cur.Model && cur.Model != "" {
				_ = p.SetModel(context.WithoutCancel(ctx), cur.Model)
			}
			return err
		}
	}
	return nil
}

// refused maps a control request's failure: the CLI's refusal is a
// conflict carrying its reason; a CLI that exited meanwhile is no failure
// (the next one starts with the new flags).
func refused(err error) error {
	var ce *claude.ControlError
	switch {
	case err == nil, errors.Is(err, claude.ErrExited):
		return nil
	case errors.As(err, &ce):
		return fmt.Errorf("claude refused the change: %s: %w", ce.Message, worker.ErrConflict)
	}
	return fmt.Errorf("change claude's settings: %w", err)
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
