package worker

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Add stores a new server with the session (enabled) and gives it to the
// session's agent, which runs it from its next start. It returns the
// server as the API shows it.
func (s *MCPServers) Add(ctx context.Context, sid string, srv MCPServer) (MCPServer, error) {
	lock, err := s.m.switchLock(sid)
	if err != nil {
		return MCPServer{}, err
	}
	lock.Lock()
	defer lock.Unlock()
	have, err := s.stored(sid)
	if err != nil {
		return MCPServer{}, err
	}
	srv.Enabled = true
	if err := srv.check(have); err != nil {
		return MCPServer{}, err
	}
	next := append(have, srv.clone())
	if err := s.save(sid, next); err != nil {
		return MCPServer{}, err
	}
	return srv.masked(), nil
}

// Remove removes a server from the session (and, from its next start,
// from its agent).
func (s *MCPServers) Remove(ctx context.Context, sid, name string) error {
	lock, err := s.m.switchLock(sid)
	if err != nil {
		return err
	}
	lock.Lock()
	defer lock.Unlock()
	have, err := s.stored(sid)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(have, func(m MCPServer) bool { return m.Name == name })
	if i < 0 {
		return fmt.Errorf("MCP server %q of this session: %w", name, ErrNotFound)
	}
	return s.save(sid, slices.Delete(have, i, i+1))
}

// SetEnabled turns a server off or on: live in the running agent when it
// has the server, stored for the next starts. A server of the agent's own
// settings (not the session's) is turned off or on in the running agent
// only.
func (s *MCPServers) SetEnabled(ctx context.Context, sid, name string, enabled bool) (MCPServerView, error) {
	lock, err := s.m.switchLock(sid)
	if err != nil {
		return MCPServerView{}, err
	}
	lock.Lock()
	defer lock.Unlock()
	have, err := s.stored(sid)
	if err != nil {
		return MCPServerView{}, err
	}
	a, err := s.agent(sid)
	if err != nil {
		return MCPServerView{}, err
	}
	i := slices.IndexFunc(have, func(m MCPServer) bool { return m.Name == name })
	if i < 0 {
		return s.toggleAgents(ctx, a, name, enabled)
	}
	if a != nil {
		if err := a.ToggleMCP(ctx, name, enabled); err != nil && !errors.Is(err, ErrNotFound) {
			return MCPServerView{}, err
		}
	}
	have[i].Enabled = enabled
	if err := s.save(sid, have); err != nil {
		return MCPServerView{}, err
	}
	return MCPServerView{MCPServer: have[i].masked(), Source: "session", Tools: []string{}}, nil
}

// toggleAgents turns off or on a server the session does not store: one
// the running agent has from elsewhere.
func (s *MCPServers) toggleAgents(ctx context.Context, a MCPAgent, name string, enabled bool) (MCPServerView, error) {
	if name == ReservedMCPName {
		return MCPServerView{}, fieldErr("name", "agentdesk's own tools cannot be turned off; disallow a tool in the session's limits instead")
	}
	if a == nil {
		return MCPServerView{}, fmt.Errorf("MCP server %q of this session: %w", name, ErrNotFound)
	}
	if err := a.ToggleMCP(ctx, name, enabled); err != nil {
		return MCPServerView{}, err
	}
	return MCPServerView{MCPServer: MCPServer{Name: name, Enabled: enabled}, Source: "agent", Tools: []string{}}, nil
}

// save stores the session's servers and tells its agent.
func (s *MCPServers) save(sid string, servers []MCPServer) error {
	if len(servers) == 0 {
		servers = nil // none: null, as for a session that never had one
	}
	if _, err := s.m.changeSession(sid, func(sess *Session) { sess.MCPServers = servers }); err != nil {
		return err
	}
	if a, err := s.agent(sid); err == nil && a != nil {
		a.SetMCPServers(servers)
	}
	return nil
}
