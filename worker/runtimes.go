package worker

import (
	"context"
	"fmt"
)

// buildRuntime runs the worker's factory without holding a lock and
// installs the runtime, unless the worker was deleted meanwhile. A factory
// error leaves the worker in status error and is returned.
func (m *Manager) buildRuntime(ctx context.Context, sess Session, ws *workerState, restored bool) error {
	m.mu.RLock()
	built, info, gen := ws.built, ws.info.clone(), ws.gen
	m.mu.RUnlock()
	defer close(built)
	f := m.factories[info.Kind]
	if f == nil {
		msg := fmt.Sprintf("%s workers are not available in this build", info.Kind)
		m.failBuild(info, msg)
		return fmt.Errorf("%s: %w", msg, ErrUnsupported)
	}
	m.mu.RLock()
	var sb *sessionBox
	if st := m.sessions[sess.ID]; st != nil {
		sb = st.box
	}
	m.mu.RUnlock()
	if sb != nil {
		// Opened now, so that the agents' config directories are ready for
		// the factory (an adopted conversation to import). A restored
		// worker still shows its history when it cannot: its processes
		// fail to start instead.
		if _, err := m.boxes.open(sb, sess); err != nil && !restored {
			m.failBuild(info, err.Error())
			return err
		}
	}
	env := m.env(sess, info, restored, gen)
	env.Config, env.Launcher = m.boxes.config(sess), m.boxes.launcher(sess, sb)
	rt, err := f(context.WithoutCancel(ctx), env)
	if err != nil {
		m.failBuild(info, err.Error())
		return err
	}
	m.mu.Lock()
	deleted := ws.deleted || m.closed
	if !deleted {
		ws.rt = rt
	}
	m.mu.Unlock()
	if deleted {
		_ = m.stopWorker(ctx, info.ID, rt)
	}
	return nil
}

// failBuild records that a worker's runtime could not be built.
func (m *Manager) failBuild(info Info, msg string) {
	m.changeWorker(info.SessionID, info.ID, origin{by: byManager}, func(i *Info) {
		i.Status, i.Error = StatusError, &msg
	})
}

// env is what the factory of a worker's runtime of generation gen gets:
// its reports count until the manager stops or replaces that runtime.
func (m *Manager) env(sess Session, info Info, restored bool, gen uint64) Env {
	sid, wid := info.SessionID, info.ID
	kind := origin{by: byKind, gen: gen}
	env := Env{
		Info: info, Session: sess, Store: m.store, Config: m.cfg,
		Log:      m.log.With("worker", wid, "kind", info.Kind),
		Restored: restored,
		Marker:   m.marker(wid),
		Launcher: m.launcher,
		SpentUSD: func() (float64, error) { return sessionCost(m.store, sid) },
		trees:    m.trees,
		Report:   reporter{m: m, sid: sid, wid: wid, from: kind},
		SetClaudeSession: func(id string) {
			if _, err := m.changeSession(sid, func(s *Session) { s.ClaudeSessionID, s.ClaudeSessionStarted = &id, false }); err != nil {
				m.log.Error("record claude session", "err", err)
			}
		},
		SaveMode: func(mode string) error {
			_, err := m.commitWorker(sid, wid, kind, func(i *Info) { i.PermissionMode = mode })
			return err
		},
		AddRules: func(rules []Rule) error { return m.addRules(sid, rules) },
		ConversationStarted: func() {
			if _, err := m.changeSession(sid, func(s *Session) { s.ClaudeSessionStarted = true }); err != nil {
				m.log.Error("record claude session started", "err", err)
			}
		},
	}
	if info.Kind == KindSDK && info.Agent == AgentCodex {
		ownConversation(m, &env, kind)
	}
	return env
}

// DeleteWorker stops a worker and removes it and its data.
func (m *Manager) DeleteWorker(ctx context.Context, sid, wid string) error {
	rt, err := m.removeWorker(sid, wid)
	if err != nil {
		return err
	}
	var stopErr error
	if rt != nil {
		stopErr = m.stopWorker(ctx, wid, rt)
	}
	if err := m.store.Records().DeleteWorker(sid, wid); err != nil {
		return fmt.Errorf("delete worker data: %w", err)
	}
	return stopErr
}

// removeWorker marks a worker deleted (a runtime still being built is
// not installed), clears it as the session's active agent, forgets it (no
// change stores it again) and broadcasts worker-deleted. It returns its
// runtime, for the caller to stop.
func (m *Manager) removeWorker(sid, wid string) (Runtime, error) {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	m.mu.Lock()
	st, ws, err := m.findLocked(sid, wid)
	if err != nil {
		m.mu.Unlock()
		return nil, err
	}
	ws.deleted = true
	var next *Session
	if st.s.ActiveAgentWorkerID != nil && *st.s.ActiveAgentWorkerID == wid {
		next = ptr(m.nextSession(st.s, func(s *Session) { s.ActiveAgentWorkerID = nil }))
	}
	m.mu.Unlock()

	next = m.putAlong(next, "clear active agent")
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, w := range st.workers {
		if w == ws {
			st.workers = append(st.workers[:i:i], st.workers[i+1:]...)
			break
		}
	}
	if next != nil {
		m.installSessionLocked(st, *next)
	}
	m.publish(workerGone(sid, wid))
	return ws.rt, nil
}

// RestartWorker stops a worker's runtime and builds a new one from the
// stored worker: a terminal gets a new shell, its output continuing at the
// next offset. It is the one way back to starting.
func (m *Manager) RestartWorker(ctx context.Context, sid, wid string) (Info, error) {
	ws, rt, err := m.detachRuntime(sid, wid)
	if err != nil {
		return Info{}, err
	}
	if rt != nil {
		if err := m.stopWorker(ctx, wid, rt); err != nil {
			m.log.Error("stop worker for restart", "worker", wid, "err", err)
		}
	}
	m.changeWorker(sid, wid, origin{by: byManager}, func(i *Info) {
		i.Status, i.ExitCode, i.Error = StatusStarting, nil, nil
	})
	sess, err := m.Session(sid)
	if err != nil {
		return Info{}, err
	}
	sess.Workers = nil
	if err := m.buildRuntime(ctx, sess, ws, false); err != nil {
		return Info{}, err
	}
	return m.Worker(sid, wid)
}

// detachRuntime takes a worker's runtime away for a restart: from here on
// its reports are dropped, and sockets wait for the next one.
func (m *Manager) detachRuntime(sid, wid string) (*workerState, Runtime, error) {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ws, err := m.findLocked(sid, wid)
	if err != nil {
		return nil, nil, err
	}
	if ws.info.Kind.IsAgent() {
		return nil, nil, fmt.Errorf("agent workers resume by themselves on the next message: %w", ErrUnsupported)
	}
	select {
	case <-ws.built:
	default:
		return nil, nil, fmt.Errorf("worker %s is still starting: %w", wid, ErrConflict)
	}
	if !allowed(ws.info.Status, StatusStarting, byManager) {
		return nil, nil, fmt.Errorf("worker %s is %s and cannot restart: %w", wid, ws.info.Status, ErrConflict)
	}
	rt := ws.rt
	ws.rt = nil
	ws.gen++
	ws.built = make(chan struct{})
	return ws, rt, nil
}
