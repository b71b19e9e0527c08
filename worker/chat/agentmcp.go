package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// The worker's limits and the session's MCP servers as the manager
// changes them, and the running agent's MCP servers.

var (
	_ worker.LimitsSetter = (*Runtime)(nil)
	_ worker.MCPAgent     = (*Runtime)(nil)
)

// SetLimits keeps the worker's new limits and allowed tools for the
// agents it starts; an idle agent is started again before the next
// message (refresh).
func (r *Runtime) SetLimits(l worker.Limits, allowed []string) {
	r.prefs.setLimits(l, allowed)
}

// SetMCPServers keeps the session's MCP servers for the agents the worker
// starts; an idle agent is started again before the next message.
func (r *Runtime) SetMCPServers(servers []worker.MCPServer) {
	r.prefs.setMCP(servers)
}

// MCPStatus is the running agent's view of its MCP servers; nil when no
// agent runs or its driver cannot say.
func (r *Runtime) MCPStatus(ctx context.Context) ([]worker.MCPStatus, error) {
	m, ok := r.slot.current().(agent.MCP)
	if !ok {
		return nil, nil
	}
	list, err := m.MCPStatus(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]worker.MCPStatus, len(list))
	for i, s := range list {
		out[i] = worker.MCPStatus{Name: s.Name, Status: s.Status, Error: s.Error, Tools: slices.Clone(s.Tools)}
		if out[i].Tools == nil {
			out[i].Tools = []string{}
		}
	}
	return out, nil
}

// ToggleMCP turns a server of the running agent off or on. A server the
// agent does not have (none runs, it was off at the start or added
// since), or an agent that cannot list its servers, is worker.ErrNotFound:
// the stored change holds from the next start.
func (r *Runtime) ToggleMCP(ctx context.Context, name string, enabled bool) error {
	m, ok := r.slot.current().(agent.MCP)
	if !ok {
		return fmt.Errorf("no running agent has MCP server %q: %w", name, worker.ErrNotFound)
	}
	list, err := m.MCPStatus(ctx)
	if err != nil {
		// Not turned live; the stored change holds from the next start.
		r.log.Warn("read the agent's MCP servers to toggle one", "server", name, "err", err)
		return fmt.Errorf("the running agent cannot say whether it has MCP server %q: %w", name, worker.ErrNotFound)
	}
	if !slices.ContainsFunc(list, func(s agent.MCPStatus) bool { return s.Name == name }) {
		return fmt.Errorf("the running agent has no MCP server %q: %w", name, worker.ErrNotFound)
	}
	err = m.ToggleMCP(ctx, name, enabled)
	if errors.Is(err, agent.ErrRestart) {
		// Stored, the change reaches the agent at its next start, which
		// the chat makes before the next message (refresh).
		return fmt.Errorf("%w; a server the session stores is turned off or on from the chat's next message: %w", err, worker.ErrNotFound)
	}
	return err
}
