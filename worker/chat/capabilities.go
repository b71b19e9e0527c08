package chat

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/worker"
)

var _ worker.CapabilityLister = (*Runtime)(nil)

// initAnswer is the part of the CLI's initialize answer agentdesk uses
// (claude-cli.md §5: about 17 KB, most of it command descriptions).
type initAnswer struct {
	Models                []worker.Model   `json:"models"`
	Commands              []worker.Command `json:"commands"`
	CurrentPermissionMode string           `json:"current_permission_mode"`
}

// parseCapabilities reads an initialize answer. A CLI that leaves a list
// out gets an empty one, so the API never answers null.
func parseCapabilities(raw json.RawMessage) (worker.Capabilities, error) {
	var a initAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return worker.Capabilities{}, fmt.Errorf("read claude's initialize answer: %w", err)
	}
	c := worker.Capabilities{Models: a.Models, Commands: a.Commands, PermissionMode: a.CurrentPermissionMode}
	if c.Models == nil {
		c.Models = []worker.Model{}
	}
	if c.Commands == nil {
		c.Commands = []worker.Command{}
	}
	return c, nil
}

// setCapabilities keeps the answer of the CLI that just started. It
// outlives that CLI: the next start answers the same.
func (r *Runtime) setCapabilities(raw json.RawMessage) {
	c, err := parseCapabilities(raw)
	if err != nil {
		r.log.Warn("claude capabilities", "err", err)
		return
	}
	r.mu.Lock()
	r.caps = &c
	r.mu.Unlock()
	r.noteInForce(claude.InForce{PermissionMode: c.PermissionMode})
}

// Capabilities answers what the CLI offers. When no CLI of this worker has
// started yet it starts one, the one the first message will use, and asks
// it; a read-only worker has no CLI to ask.
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
