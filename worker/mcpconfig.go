package worker

import (
	"context"
	"fmt"
)

// MCPAgent is an agent runtime that runs MCP servers (found by type
// assertion). The manager tells it the session's servers when they
// change; it asks it for their state and turns one off or on live.
type MCPAgent interface {
	// MCPStatus is the running agent's view of every MCP server it has,
	// agentdesk's own and those of its own settings included; nil with no
	// error when no agent process runs now.
	MCPStatus(ctx context.Context) ([]MCPStatus, error)
	// ToggleMCP turns a server the running agent has off or on. An error
	// wrapping ErrNotFound says the agent does not have it (it was off when
	// the agent started): SetMCPServers then applies the change.
	ToggleMCP(ctx context.Context, name string, enabled bool) error
	// SetMCPServers gives the runtime the session's servers (secrets
	// included): the agent runs them from its next start, and a runtime
	// whose agent is idle starts it again before the next message.
	SetMCPServers(servers []MCPServer)
}

// MCPStatus is one MCP server as the running agent reports it. It never
// carries the server's configuration (which would show its secrets).
type MCPStatus struct {
	Name   string   `json:"name"`
	Status string   `json:"status"` // connected, pending, failed, disabled, needs-auth…
	Error  string   `json:"error,omitempty"`
	Tools  []string `json:"tools"`
}

// MCPServerView is a server as GET …/mcp-servers shows it: the session's
// (masked), agentdesk's own, or one of the agent's own settings, with what
// the running agent says of it.
type MCPServerView struct {
	MCPServer
	// Source is "session" (stored with the session: it can be removed),
	// "agentdesk" (the tool bridge) or "agent" (the agent's own settings).
	Source string `json:"source"`
	// Status is nil when no agent process runs (or it has not reported).
	Status *string  `json:"status"`
	Error  string   `json:"error,omitempty"`
	Tools  []string `json:"tools"`
}

// MCPServers manages the MCP servers of sessions (docs/api-extensions.md,
// "MCP servers of a session"). Changes are serialised with switches.
type MCPServers struct{ m *Manager }

// NewMCPServers returns the MCP servers of m's sessions.
func NewMCPServers(m *Manager) *MCPServers { return &MCPServers{m: m} }

// agent returns the runtime of the agent worker that drives the session,
// nil when none runs or it has no MCP servers.
func (s *MCPServers) agent(sid string) (MCPAgent, error) {
	s.m.mu.RLock()
	defer s.m.mu.RUnlock()
	st, ok := s.m.sessions[sid]
	if !ok {
		return nil, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	if ws := s.m.drivingAgentLocked(st); ws != nil {
		if a, ok := ws.rt.(MCPAgent); ok {
			return a, nil
		}
	}
	return nil, nil
}

// stored returns the session's servers with their secrets.
func (s *MCPServers) stored(sid string) ([]MCPServer, error) {
	s.m.mu.RLock()
	defer s.m.mu.RUnlock()
	st, ok := s.m.sessions[sid]
	if !ok {
		return nil, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	out := make([]MCPServer, len(st.s.MCPServers))
	for i, srv := range st.s.MCPServers {
		out[i] = srv.clone()
	}
	return out, nil
}

// Stored returns the session's servers with their secrets, for the
// runtime that starts the agent. Never show them.
func (s *MCPServers) Stored(sid string) ([]MCPServer, error) { return s.stored(sid) }

// List returns the session's servers, masked, and the running agent's
// others, each with the state the agent reports.
func (s *MCPServers) List(ctx context.Context, sid string) ([]MCPServerView, error) {
	have, err := s.stored(sid)
	if err != nil {
		return nil, err
	}
	a, err := s.agent(sid)
	if err != nil {
		return nil, err
	}
	var live []MCPStatus
	if a != nil {
		if live, err = a.MCPStatus(ctx); err != nil {
			s.m.log.Warn("read the agent's MCP status", "session", sid, "err", err)
			live = nil // the stored servers are still worth showing
		}
	}
	return mcpViews(have, live), nil
}

// mcpViews joins the stored servers with the agent's report.
func mcpViews(have []MCPServer, live []MCPStatus) []MCPServerView {
	out := make([]MCPServerView, 0, len(have)+len(live))
	byName := map[string]int{}
	for _, srv := range have {
		byName[srv.Name] = len(out)
		out = append(out, MCPServerView{MCPServer: srv.masked(), Source: "session", Tools: []string{}})
	}
	for _, st := range live {
		i, ok := byName[st.Name]
		if !ok {
			src := "agent"
			if st.Name == ReservedMCPName {
				src = "agentdesk"
			}
			i = len(out)
			out = append(out, MCPServerView{MCPServer: MCPServer{Name: st.Name, Enabled: st.Status != "disabled"}, Source: src})
		}
		status := st.Status
		out[i].Status, out[i].Error, out[i].Tools = &status, st.Error, st.Tools
		if out[i].Tools == nil {
			out[i].Tools = []string{}
		}
	}
	return out
}
