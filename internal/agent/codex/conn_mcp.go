package codex

import (
	"context"

	"github.com/agentdesk/agentdesk/internal/agent"
)

var _ agent.MCP = (*conn)(nil)

// MCPStatus lists the thread's MCP servers (agent.MCP).
func (c *conn) MCPStatus(ctx context.Context) ([]agent.MCPStatus, error) {
	list, err := c.s.MCPStatus(ctx)
	if err != nil {
		return nil, exited(err)
	}
	out := make([]agent.MCPStatus, len(list))
	for i, s := range list {
		out[i] = agent.MCPStatus(s)
	}
	return out, nil
}

// errToggle is Codex 0.171's answer to a toggle: app-server has no way to
// turn one server of a running thread off or on (config/batchWrite
// writes config.toml, which cannot hold a server given as the thread's
// config, and reloads apply only at a later turn), so a change the
// session stores holds from the next start, which the chat makes before
// its next message.
var errToggle = agent.NewError(agent.ErrRestart,
	"Codex turns an MCP server off or on only when it starts")

// ToggleMCP answers errToggle (agent.ErrRestart): see there.
func (c *conn) ToggleMCP(context.Context, string, bool) error { return errToggle }
