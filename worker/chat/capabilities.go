package chat

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

var _ worker.CapabilityLister = (*Runtime)(nil)

// setCapabilities keeps what the agent that just started offers (none
// when it said nothing readable). It outlives that agent: the next start
// answers the same.
func (r *Runtime) setCapabilities(a agent.Capabilities) {
	if a.Models == nil && a.Commands == nil {
		return
	}
	// The API never answers null lists.
	c := worker.Capabilities{Models: []worker.Model{}, Commands: []worker.Command{}, PermissionMode: a.PermissionMode}
	for _, m := range a.Models {
		c.Models = append(c.Models, worker.Model(m))
	}
	for _, cmd := range a.Commands {
		c.Commands = append(c.Commands, worker.Command(cmd))
	}
	r.mu.Lock()
	r.caps = &c
	r.mu.Unlock()
	r.noteInForce(agent.Settings{PermissionMode: c.PermissionMode})
}

// Capabilities answers what the agent offers. When no agent of this worker
// has started yet it starts one, the one the first message will use, and
// asks it; a read-only worker has no agent to ask.
func (r *Runtime) Capabilities(ctx context.Context) (worker.Capabilities, error) {
	if c, ok := r.cachedCapabilities(); ok {
		return c, nil
	}
	if r.readOnly {
		return worker.Capabilities{}, fmt.Errorf("this worker no longer drives the conversation: %w", worker.ErrNotRunning)
	}
	select {
	case <-r.imported: // the CLI must not touch the session file while it is read
	case <-ctx.Done():
		return worker.Capabilities{}, ctx.Err()
	}
	r.sendMu.Lock()
	_, err := r.ensureProcess()
	r.sendMu.Unlock()
	if err != nil {
		return worker.Capabilities{}, err
	}
	c, _ := r.cachedCapabilities()
	return c, nil
}

func (r *Runtime) cachedCapabilities() (worker.Capabilities, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.caps == nil {
		return worker.Capabilities{}, false
	}
	return *r.caps, true
}
