package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/uuid"
)

// WorkerRequest is the body of POST /api/sessions/:sid/workers.
type WorkerRequest struct {
	Kind           Kind     `json:"kind"`
	Name           string   `json:"name"`
	Model          string   `json:"model"`
	PermissionMode string   `json:"permissionMode"`
	AllowedTools   []string `json:"allowedTools"`
	Command        []string `json:"command"`
	Cols           int      `json:"cols"`
	Rows           int      `json:"rows"`
	Base           string   `json:"base"`
}

var permissionModes = map[string]bool{"": true, "default": true, "acceptEdits": true, "plan": true, "bypassPermissions": true}

func (r WorkerRequest) info() (Info, error) {
	i := Info{Kind: r.Kind, Name: strings.TrimSpace(r.Name)}
	if r.Cols < 0 || r.Cols > 1000 || r.Rows < 0 || r.Rows > 1000 {
		return i, fieldErr("cols", "cols and rows must be between 1 and 1000")
	}
	switch r.Kind {
	case KindSDK:
		if !permissionModes[r.PermissionMode] {
			return i, fieldErr("permissionMode", "must be one of default, acceptEdits, plan, bypassPermissions")
		}
		i.Model, i.PermissionMode, i.AllowedTools = r.Model, r.PermissionMode, r.AllowedTools
	case KindPTYAgent:
		i.Model, i.Cols, i.Rows = r.Model, r.Cols, r.Rows
	case KindTerminal:
		i.Command, i.Cols, i.Rows = r.Command, r.Cols, r.Rows
	case KindGitDiff:
		i.Base = r.Base
	case "":
		return i, fieldErr("kind", "is required: one of sdk, pty-agent, terminal, git-diff")
	default:
		return i, fieldErr("kind", "unknown worker kind %q: use sdk, pty-agent, terminal or git-diff", r.Kind)
	}
	return i, nil
}

// CreateWorker adds a worker to a session and starts it.
func (m *Manager) CreateWorker(ctx context.Context, sid string, req WorkerRequest) (Info, error) {
	info, err := req.info()
	if err != nil {
		return Info{}, err
	}
	if !m.Supports(info.Kind) {
		return Info{}, fieldErr("kind", "%s workers are not available in this build", info.Kind)
	}
	info.ID = uuid.Must(uuid.NewV7()).String()
	info.SessionID = sid
	info.CreatedAt = m.now()
	info.Status = StatusStarting

	m.mu.Lock()
	st, ok := m.sessions[sid]
	if !ok {
		m.mu.Unlock()
		return Info{}, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	if info.Kind.IsAgent() {
		if busy := m.drivingAgentLocked(st); busy != nil {
			m.mu.Unlock()
			return Info{}, fmt.Errorf("agent worker %s already drives this session's conversation; switch instead: %w", busy.info.ID, ErrConflict)
		}
	}
	if info.Name == "" {
		info.Name = st.defaultName(info.Kind)
	}
	if err := m.putWorker(info); err != nil {
		m.mu.Unlock()
		return Info{}, err
	}
	ws := newWorkerState(info)
	st.workers = append(st.workers, ws)
	if info.Kind.IsAgent() {
		id := info.ID
		if err := m.setSessionLocked(st, func(s *Session) { s.ActiveAgentWorkerID = &id }); err != nil {
			m.log.Error("record active agent", "err", err)
		}
	}
	m.publish(workerEvent{Type: "worker-created", Worker: info.clone()})
	sess := st.s
	m.mu.Unlock()

	if err := m.buildRuntime(ctx, sess, ws, false); errors.Is(err, ErrInvalid) {
		// The kind refused the options (a base that does not resolve, a
		// directory that is not a work tree): the request changes nothing.
		if derr := m.DeleteWorker(ctx, sid, info.ID); derr != nil {
			m.log.Error("remove refused worker", "worker", info.ID, "err", derr)
		}
		return Info{}, err
	}
	return m.Worker(sid, info.ID)
}

// drivingAgentLocked returns the agent worker that drives the session's
// conversation, if it is still alive.
func (m *Manager) drivingAgentLocked(st *sessionState) *workerState {
	if st.s.ActiveAgentWorkerID == nil {
		return nil
	}
	for _, ws := range st.workers {
		if ws.info.ID == *st.s.ActiveAgentWorkerID && (ws.info.Status == StatusRunning || ws.info.Status == StatusStarting) {
			return ws
		}
	}
	return nil
}

func (st *sessionState) defaultName(k Kind) string {
	n := 0
	for _, ws := range st.workers {
		if ws.info.Kind == k {
			n++
		}
	}
	if n == 0 {
		return string(k)
	}
	return fmt.Sprintf("%s %d", k, n+1)
}

// buildRuntime runs the worker's factory without holding the lock and
// installs the runtime, unless the worker was deleted meanwhile. A factory
// error leaves the worker in status error and is returned.
func (m *Manager) buildRuntime(ctx context.Context, sess Session, ws *workerState, restored bool) error {
	m.mu.Lock()
	built := ws.built
	m.mu.Unlock()
	defer close(built)
	f := m.factories[ws.info.Kind]
	if f == nil {
		m.update(ws.info.SessionID, ws.info.ID, func(i *Info) {
			i.Status = StatusError
			i.Error = ptr(fmt.Sprintf("%s workers are not available in this build", i.Kind))
		})
		return fmt.Errorf("%s workers are not available in this build: %w", ws.info.Kind, ErrUnsupported)
	}
	m.mu.Lock()
	info := ws.info.clone()
	m.mu.Unlock()
	env := Env{
		Info: info, Session: sess, Store: m.store, Config: m.cfg,
		Log:      m.log.With("worker", info.ID, "kind", info.Kind),
		Restored: restored,
		Marker:   m.marker(info.ID),
		Update:   func(fn func(*Info)) { m.update(info.SessionID, info.ID, fn) },
		Report:   reporter{m: m, sid: info.SessionID, wid: info.ID},
		SetClaudeSession: func(id string) {
			if _, err := m.updateSession(info.SessionID, func(s *Session) { s.ClaudeSessionID, s.ClaudeSessionStarted = &id, false }); err != nil {
				m.log.Error("record claude session", "err", err)
			}
		},
		ConversationStarted: func() {
			if _, err := m.updateSession(info.SessionID, func(s *Session) { s.ClaudeSessionStarted = true }); err != nil {
				m.log.Error("record claude session started", "err", err)
			}
		},
	}
	rt, err := f(context.WithoutCancel(ctx), env)
	if err != nil {
		m.update(info.SessionID, info.ID, func(i *Info) {
			i.Status = StatusError
			i.Error = ptr(err.Error())
		})
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

// Worker returns one worker.
func (m *Manager) Worker(sid, wid string) (Info, error) {
	info, _, err := m.Runtime(sid, wid)
	return info, err
}

// WaitRuntime is Runtime, but waits (until ctx ends) for a runtime that is
// still being built.
func (m *Manager) WaitRuntime(ctx context.Context, sid, wid string) (Info, Runtime, error) {
	m.mu.Lock()
	_, ws, err := m.findLocked(sid, wid)
	var built chan struct{}
	if err == nil {
		built = ws.built
	}
	m.mu.Unlock()
	if err != nil {
		return Info{}, nil, err
	}
	select {
	case <-built:
	case <-ctx.Done():
	}
	return m.Runtime(sid, wid)
}

// Runtime returns a worker and its runtime (nil while it is being built or
// when its kind is not available).
func (m *Manager) Runtime(sid, wid string) (Info, Runtime, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ws, err := m.findLocked(sid, wid)
	if err != nil {
		return Info{}, nil, err
	}
	return ws.info.clone(), ws.rt, nil
}

func (m *Manager) findLocked(sid, wid string) (*sessionState, *workerState, error) {
	st, ok := m.sessions[sid]
	if !ok {
		return nil, nil, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	for _, ws := range st.workers {
		if ws.info.ID == wid {
			return st, ws, nil
		}
	}
	return nil, nil, fmt.Errorf("worker %q: %w", wid, ErrNotFound)
}

// DeleteWorker stops a worker and removes it and its data.
func (m *Manager) DeleteWorker(ctx context.Context, sid, wid string) error {
	m.mu.Lock()
	st, ws, err := m.findLocked(sid, wid)
	if err != nil {
		m.mu.Unlock()
		return err
	}
	ws.deleted = true
	for i, w := range st.workers {
		if w == ws {
			st.workers = append(st.workers[:i:i], st.workers[i+1:]...)
			break
		}
	}
	if st.s.ActiveAgentWorkerID != nil && *st.s.ActiveAgentWorkerID == wid {
		if err := m.setSessionLocked(st, func(s *Session) { s.ActiveAgentWorkerID = nil }); err != nil {
			m.log.Error("clear active agent", "err", err)
		}
	}
	m.publish(workerDeleted{Type: "worker-deleted", SessionID: sid, WorkerID: wid})
	rt := ws.rt
	m.mu.Unlock()

	var stopErr error
	if rt != nil {
		stopErr = m.stopWorker(ctx, wid, rt)
	}
	if err := m.store.DeleteWorker(sid, wid); err != nil {
		return fmt.Errorf("delete worker data: %w", err)
	}
	return stopErr
}

// RestartWorker stops a worker's runtime and builds a new one from the
// stored worker: a terminal gets a new shell, its output continuing at the
// next offset.
func (m *Manager) RestartWorker(ctx context.Context, sid, wid string) (Info, error) {
	m.mu.Lock()
	_, ws, err := m.findLocked(sid, wid)
	if err != nil {
		m.mu.Unlock()
		return Info{}, err
	}
	if ws.info.Kind.IsAgent() {
		m.mu.Unlock()
		return Info{}, fmt.Errorf("agent workers resume by themselves on the next message: %w", ErrUnsupported)
	}
	select {
	case <-ws.built:
	default:
		m.mu.Unlock()
		return Info{}, fmt.Errorf("worker %s is still starting: %w", wid, ErrConflict)
	}
	rt := ws.rt
	ws.rt = nil
	ws.built = make(chan struct{})
	m.mu.Unlock()
	if rt != nil {
		if err := m.stopWorker(ctx, wid, rt); err != nil {
			m.log.Error("stop worker for restart", "worker", wid, "err", err)
		}
	}
	m.update(sid, wid, func(i *Info) {
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

// update applies fn to a stored worker, persists it and broadcasts
// worker-updated (and worker-activity when the activity changed). Updates
// for a deleted worker are dropped.
func (m *Manager) update(sid, wid string, fn func(*Info)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ws, err := m.findLocked(sid, wid)
	if err != nil || ws.deleted {
		return
	}
	next := ws.info.clone()
	fn(&next)
	next.ID, next.SessionID, next.Kind = ws.info.ID, ws.info.SessionID, ws.info.Kind
	if reflect.DeepEqual(next, ws.info) {
		// Nothing changed (a restored worker found as it was stored): no
		// write, which would cost a commit per worker at start-up.
		return
	}
	if err := m.putWorker(next); err != nil {
		m.log.Error("store worker update", "worker", wid, "err", err)
	}
	activityChanged := !equalActivity(ws.info.Activity, next.Activity)
	ws.info = next
	m.publish(workerEvent{Type: "worker-updated", Worker: next.clone()})
	if activityChanged {
		m.publish(workerActivity{Type: "worker-activity", SessionID: sid, WorkerID: wid, Activity: next.clone().Activity})
	}
}

func (m *Manager) setSessionLocked(st *sessionState, fn func(*Session)) error {
	next := st.s
	fn(&next)
	next.UpdatedAt = m.now()
	if err := m.putSession(next); err != nil {
		return err
	}
	st.s = next
	m.publish(sessionEvent{Type: "session-updated", Session: st.snapshot()})
	return nil
}

func (m *Manager) putWorker(i Info) error {
	b, err := json.Marshal(i)
	if err != nil {
		return fmt.Errorf("encode worker: %w", err)
	}
	if err := m.store.PutWorker(i.SessionID, i.ID, b); err != nil {
		return fmt.Errorf("store worker: %w", err)
	}
	return nil
}

func equalActivity(a, b *Activity) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func ptr[T any](v T) *T { return &v }

// IsNotFound reports whether err means a session or worker does not exist.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
