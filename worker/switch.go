package worker

import (
	"context"
	"fmt"
)

// SwitchRequest is the body of POST /api/sessions/:sid/switch.
type SwitchRequest struct {
	To    Kind `json:"to"`
	Force bool `json:"force"`
}

// Switch moves the session's conversation to a new agent worker of kind
// req.To. The agent worker that drove it is stopped first, and its process
// has ended before the new one starts: two CLI processes never write one
// session file. Switches of one session are serialised.
func (m *Manager) Switch(ctx context.Context, sid string, req SwitchRequest) (Info, error) {
	if !req.To.IsAgent() {
		return Info{}, fieldErr("to", `must be "sdk" or "pty-agent", got %q`, req.To)
	}
	if !m.Supports(req.To) {
		return Info{}, fieldErr("to", "%s workers are not available in this build", req.To)
	}
	lock, err := m.switchLock(sid)
	if err != nil {
		return Info{}, err
	}
	lock.Lock()
	defer lock.Unlock()

	m.mu.RLock()
	st, ok := m.sessions[sid]
	if !ok {
		m.mu.RUnlock()
		return Info{}, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	cur := m.drivingAgentLocked(st)
	var curInfo Info
	var curRT Runtime
	if cur != nil {
		curInfo, curRT = cur.info.clone(), cur.rt
	}
	m.mu.RUnlock()

	if cur != nil && curInfo.Kind == req.To {
		return curInfo, nil
	}
	if cur != nil {
		if err := m.retire(ctx, sid, curInfo, curRT, req.Force); err != nil {
			return Info{}, err
		}
	}
	return m.CreateWorker(ctx, sid, WorkerRequest{
		Kind: req.To, Model: curInfo.Model, PermissionMode: curInfo.PermissionMode, AllowedTools: curInfo.AllowedTools,
		Limits:  curInfo.Limits.clone(),
		inherit: curInfo.Current, carried: true,
	})
}

// retire stops the agent worker that drives the conversation, after
// interrupting its turn when forced; it stays visible, read-only, as
// stopped.
func (m *Manager) retire(ctx context.Context, sid string, info Info, rt Runtime, force bool) error {
	if w, ok := rt.(Watcher); ok && w.Watching() {
		return fmt.Errorf("a claude process outside agentdesk is writing this conversation; switch once it has ended: %w", ErrConflict)
	}
	if ar, ok := rt.(ActivityReporter); ok && ar.Activity() != ActivityIdle && ar.Activity() != "" {
		if !force {
			return fmt.Errorf("a turn is running in %s; wait for it, cancel it, or switch with force: %w", info.Name, ErrAgentBusy)
		}
		if c, ok := rt.(Canceller); ok {
			if _, err := c.Cancel(ctx); err != nil {
				m.log.Error("interrupt before switch", "worker", info.ID, "err", err)
			}
		}
	}
	// From here on the stop is the manager's: what the runtime reports
	// while it ends (its CLI killed, its activity) is not recorded.
	m.silence(sid, info.ID)
	if rt != nil {
		if err := m.stopWorker(ctx, info.ID, rt); err != nil {
			return fmt.Errorf("stop %s before switching: %w", info.Name, err)
		}
	}
	m.changeWorker(sid, info.ID, origin{by: byManager}, func(i *Info) {
		i.Status, i.Activity = StatusStopped, nil
	})
	return nil
}

// switchLock returns the session's switch mutex.
func (m *Manager) switchLock(sid string) (*sessionLock, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	st, ok := m.sessions[sid]
	if !ok {
		return nil, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	return &st.switching, nil
}
