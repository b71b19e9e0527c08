package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// The engine's tools (agent.Options.Tools) and MCP servers in the CLI:
// agentdesk's SDK server, hosted here by a toolbridge.Host; the session's
// servers, run by the CLI itself; the limits as flags.

// cliTimeoutMargin is added to the registry's own limit on a call for the
// CLI's: agentdesk's limit ends a call first, with its clearer error.
const cliTimeoutMargin = 30 * time.Second

// notifyTimeout bounds telling the CLI that the tool list changed.
const notifyTimeout = 10 * time.Second

// limits are the CLI's per-process flags for o.
func limits(o agent.Options, resume bool) Limits {
	l := o.Limits
	return Limits{
		AppendSystemPrompt: l.AppendSystemPrompt,
		// The CLI keeps the prompt a conversation began with; the
		// session's current one must hold on every resume.
		SnapshotOff:     resume,
		MaxTurns:        l.MaxTurns,
		MaxBudgetUSD:    l.MaxBudgetUSD,
		DisallowedTools: l.DisallowedTools,
		AddDirs:         l.AddDirs,
		MCPConfig:       mcpConfigFor(o),
	}
}

// mcpConfigFor is --mcp-config for o: agentdesk's SDK server when o has
// tools, and the session's servers; "" for neither.
func mcpConfigFor(o agent.Options) string {
	servers := make([]MCPServer, len(o.MCPServers))
	for i, s := range o.MCPServers {
		servers[i] = MCPServer(s)
	}
	if o.Tools.Registry != nil {
		return MCPConfig(o.Tools.Registry.Timeout()+cliTimeoutMargin, servers)
	}
	return ServersConfig(servers)
}

// newHost is the SDK server's host for p, nil when o has no tools. It
// tells the CLI when the tools it sees change.
func newHost(p *Process, o agent.Options) *toolbridge.Host {
	if o.Tools.Registry == nil {
		return nil
	}
	log := logOf(o)
	return toolbridge.NewHost(o.Tools.Registry, toolbridge.HostOptions{
		Scope: o.Tools.Scope, Name: SDKServer, Version: "1", ToolUseMeta: ToolUseMeta,
		Notify: func(msg []byte) {
			ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
			defer cancel()
			if err := p.NotifyMCP(ctx, SDKServer, msg); err != nil {
				log.Warn("tell claude its tools changed", "err", err)
			}
		},
	})
}

// initialize sends the initialize request, with the SDK server's cached
// handshake when there is a host: the first turn never waits for it.
func initialize(ctx context.Context, p *Process, h *toolbridge.Host) (json.RawMessage, error) {
	if h == nil {
		return p.Initialize(ctx)
	}
	return p.InitializeTools(ctx, h.Manifest())
}

// mcpMessage answers the CLI's JSON-RPC message for an SDK server: the
// host answers agentdesk's, at once or when a tool call ends.
func (c *conn) mcpMessage(l Line) {
	server, msg, err := MCPMessage(l)
	if err != nil {
		c.log.Warn("bad mcp message", "err", err)
		return
	}
	reply := func(b []byte) {
		if err := c.p.RespondMCP(l.RequestID, b); err != nil {
			c.log.Debug("answer claude's mcp message", "err", err)
		}
	}
	if server != SDKServer || c.host == nil {
		reply(noServer(msg, server))
		return
	}
	c.host.Handle(msg, reply)
}

// noServer is the JSON-RPC error for a message to a server agentdesk
// does not host.
func noServer(msg json.RawMessage, server string) []byte {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(msg, &m)
	if len(m.ID) == 0 {
		m.ID = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
		"error": map[string]any{"code": -32601, "message": fmt.Sprintf("agentdesk hosts no MCP server %q", server)}})
	return b
}

// bridgePrefix is the CLI's name prefix of agentdesk's tools.
const bridgePrefix = "mcp__" + SDKServer + "__"

// nameProvider says on a request for one of agentdesk's tools who
// provides it: the person decides knowing whose code answers.
func (c *conn) nameProvider(r *agent.Request) {
	tool, ok := strings.CutPrefix(r.Tool, bridgePrefix)
	if !ok || c.tools.Registry == nil {
		return
	}
	who := c.tools.Registry.Provider(c.tools.Scope, tool)
	if who == "" {
		who = "no provider connected"
	}
	note := "Provided by " + who + "."
	if r.Description != "" {
		note += " " + r.Description
	}
	r.Description = note
}

// MCPStatus asks the CLI for its MCP servers (agent.MCP).
func (c *conn) MCPStatus(ctx context.Context) ([]agent.MCPStatus, error) {
	list, err := c.p.MCPStatus(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]agent.MCPStatus, len(list))
	for i, s := range list {
		out[i] = agent.MCPStatus(s)
	}
	return out, nil
}

// ToggleMCP turns one of the CLI's servers off or on (agent.MCP).
func (c *conn) ToggleMCP(ctx context.Context, name string, enabled bool) error {
	return refused(c.p.MCPToggle(ctx, name, enabled))
}
