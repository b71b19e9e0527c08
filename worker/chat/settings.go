package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

var (
	_ worker.SettingsApplier  = (*Runtime)(nil)
	_ worker.RuleSetter       = (*Runtime)(nil)
	_ worker.CapabilityLister = (*Runtime)(nil)
)

// ApplySettings gives a running agent the new model and permission mode
// through its driver and keeps them for the agents started later. A
// change the agent refuses (Claude's bypassPermissions in a CLI not
// started with it) returns an error wrapping worker.ErrConflict with the
// agent's reason, and nothing changes. The sender's lock keeps an agent from
// starting meanwhile with the old settings.
func (r *Runtime) ApplySettings(ctx context.Context, next worker.Settings) error {
	if r.readOnly {
		return errReadOnly
	}
	r.snd.lock()
	defer r.snd.unlock()
	p, cur := r.slot.current(), r.prefs.get()
	if p != nil {
		if err := applyLive(ctx, p, cur, next); err != nil {
			return err
		}
		if next.Model != cur.Model {
			// The agent took it; its next init names the model in full.
			r.prefs.noteInForce(agent.Settings{Model: next.Model})
		}
	}
	r.prefs.set(next)
	return nil
}

// applyLive gives p the changes; an agent that exited meanwhile is no
// failure (the next one starts with the new settings).
func applyLive(ctx context.Context, p agent.Conn, cur, next worker.Settings) error {
	from := agent.Settings{Model: cur.Model, PermissionMode: cur.PermissionMode}
	to := agent.Settings{Model: next.Model, PermissionMode: next.PermissionMode}
	if err := p.Apply(ctx, from, to); err != nil && !errors.Is(err, agent.ErrExited) {
		return err
	}
	return nil
}

// SetRules replaces the session rules passed to the agents this worker
// starts. The running agent keeps a rule it was given until it ends, so an
// idle one is ended now (the next message resumes the conversation in a
// new agent); while a turn runs nothing changes and ErrAgentBusy is
// returned.
func (r *Runtime) SetRules(ctx context.Context, rules []worker.Rule) error {
	r.snd.lock()
	defer r.snd.unlock()
	if r.journal.busy() {
		return fmt.Errorf("a turn is running; remove the rule once it ends: %w", worker.ErrAgentBusy)
	}
	r.prefs.setRules(rules)
	p := r.slot.retire()
	if p == nil {
		return nil
	}
	if err := p.Close(ctx); err != nil {
		r.log.Warn("end the agent to drop a rule", "err", err)
	}
	r.slot.forget(p)
	return nil
}

// Capabilities answers what the agent offers. When no agent of this worker
// has started yet it starts one, the one the first message will use, and
// asks it; a read-only worker has no agent to ask.
func (r *Runtime) Capabilities(ctx context.Context) (worker.Capabilities, error) {
	if c, ok := r.prefs.capabilities(); ok {
		return c, nil
	}
	if r.readOnly {
		return worker.Capabilities{}, errReadOnly
	}
	select {
	case <-r.imported: // the agent must not touch the conversation while it is read
	case <-ctx.Done():
		return worker.Capabilities{}, ctx.Err()
	}
	r.snd.lock()
	_, err := r.slot.ensure()
	r.snd.unlock()
	if err != nil {
		return worker.Capabilities{}, err
	}
	c, _ := r.prefs.capabilities()
	return c, nil
}
