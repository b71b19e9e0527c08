package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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
	// Agent is a chat's agent: "claude" (or "") or "codex".
	Agent string `json:"agent"`
	Limits

	// inherit is what the agent worker a switch retires ran with: the
	// terminal view starts with it where the person chose nothing, so both
	// views run the same (Switch).
	inherit *Current
	// carried: the limits come from the worker a switch retires, checked
	// when they were set (a directory gone since does not stop a switch).
	carried bool
}

func (r WorkerRequest) info() (Info, error) {
	i := Info{Kind: r.Kind, Name: strings.TrimSpace(r.Name)}
	if r.Cols < 0 || r.Cols > 1000 || r.Rows < 0 || r.Rows > 1000 {
		return i, fieldErr("cols", "cols and rows must be between 1 and 1000")
	}
	if r.Agent != "" && r.Kind != KindSDK {
		return i, fieldErr("agent", "only chat (sdk) workers have an agent")
	}
	agent, err := chatAgent(r.Agent)
	if err != nil {
		return i, err
	}
	if err := checkMode(agent, r.PermissionMode); r.Kind.IsAgent() && err != nil {
		return i, err
	}
	limits, err := r.agentLimits()
	if err != nil {
		return i, err
	}
	if agent == AgentCodex && !r.carried {
		if err := checkCodexRules(r.AllowedTools, limits); err != nil {
			return i, err
		}
	}
	i.Limits = limits
	switch r.Kind {
	case KindSDK:
		i.Agent, i.Model, i.PermissionMode, i.AllowedTools = agent, r.Model, r.PermissionMode, r.AllowedTools
	case KindPTYAgent:
		// The same choices as a chat's: the TUI starts with them, and a
		// switch back to the chat keeps them.
		i.Model, i.PermissionMode, i.AllowedTools, i.Cols, i.Rows = r.Model, r.PermissionMode, r.AllowedTools, r.Cols, r.Rows
		i.Current = r.startsWith()
	case KindTerminal:
		i.Command, i.Cols, i.Rows = r.Command, r.Cols, r.Rows
	case KindGitDiff:
		i.Base = r.Base
	case KindFiles:
	case "":
		return i, fieldErr("kind", "is required: one of sdk, pty-agent, terminal, git-diff, files")
	default:
		return i, fieldErr("kind", "unknown worker kind %q: use sdk, pty-agent, terminal, git-diff or files", r.Kind)
	}
	return i, nil
}

// agentLimits validates the request's limits and allowed tools: an agent
// worker's options only.
func (r WorkerRequest) agentLimits() (Limits, error) {
	if !r.Kind.IsAgent() {
		if !r.Limits.IsZero() {
			return Limits{}, fieldErr("maxTurns", "limits (appendSystemPrompt, maxTurns, maxBudgetUsd, disallowedTools, addDirs) are options of agent workers (sdk, pty-agent) only")
		}
		return Limits{}, nil
	}
	if r.carried {
		return r.Limits.clone(), nil
	}
	if err := checkToolRules("allowedTools", r.AllowedTools); err != nil {
		return Limits{}, err
	}
	return r.Limits.check()
}

// startsWith is what a new pty-agent's CLI is started with: the choices,
// else what the retired worker ran with (nil when neither says anything).
func (r WorkerRequest) startsWith() *Current {
	c := Current{Model: r.Model, PermissionMode: r.PermissionMode}
	if r.inherit != nil {
		c.Model = cmp.Or(c.Model, r.inherit.Model)
		c.PermissionMode = cmp.Or(c.PermissionMode, r.inherit.PermissionMode)
	}
	if c == (Current{}) {
		return nil
	}
	return &c
}

// CreateWorker adds a worker to a session and starts it. Options the
// kind's validator refuses change nothing: no record, no event.
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
	if err := m.validate(ctx, info); err != nil {
		return Info{}, err
	}
	ws, sess, err := m.addWorker(info)
	if err != nil {
		return Info{}, err
	}
	if err := m.buildRuntime(ctx, sess, ws, false); errors.Is(err, ErrInvalid) {
		// The factory refused the options after all (a kind without a
		// validator, or a base deleted since it was checked).
		if derr := m.DeleteWorker(ctx, sid, info.ID); derr != nil {
			m.log.Error("remove refused worker", "worker", info.ID, "err", derr)
		}
		return Info{}, err
	}
	return m.Worker(sid, info.ID)
}

// validate runs the kind's validator, if it has one, on a new worker.
func (m *Manager) validate(ctx context.Context, info Info) error {
	v := m.validators[info.Kind]
	if v == nil {
		return nil
	}
	sess, err := m.Session(info.SessionID)
	if err != nil {
		return err
	}
	sess.Workers = nil
	return v(ctx, Env{
		Info: info, Session: sess, Store: m.store, Config: m.cfg,
		Log: m.log.With("kind", info.Kind), Launcher: m.launcher,
	})
}

// addWorker stores a new worker (and, for an agent, the session's new
// active agent) and broadcasts it. It returns the worker's state and its
// session.
func (m *Manager) addWorker(info Info) (*workerState, Session, error) {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	m.mu.RLock()
	st, ok := m.sessions[info.SessionID]
	if !ok {
		m.mu.RUnlock()
		return nil, Session{}, fmt.Errorf("session %q: %w", info.SessionID, ErrNotFound)
	}
	if st.s.Archived {
		m.mu.RUnlock()
		return nil, Session{}, fmt.Errorf("session %s is archived: it takes no new worker: %w", info.SessionID, ErrConflict)
	}
	if err := st.s.boxedLimits(info.Limits); err != nil {
		m.mu.RUnlock()
		return nil, Session{}, err
	}
	if info.DrivesClaudeConversation() {
		if busy := m.drivingAgentLocked(st); busy != nil {
			m.mu.RUnlock()
			return nil, Session{}, fmt.Errorf("agent worker %s already drives this session's conversation; switch instead: %w", busy.info.ID, ErrConflict)
		}
	}
	if info.Name == "" {
		info.Name = st.defaultName(info.Kind)
	}
	var next *Session
	if info.DrivesClaudeConversation() {
		id := info.ID
		next = ptr(m.nextSession(st.s, func(s *Session) { s.ActiveAgentWorkerID = &id }))
	}
	m.mu.RUnlock()

	if err := m.putWorker(info); err != nil {
		return nil, Session{}, err
	}
	next = m.putAlong(next, "record active agent")
	m.mu.Lock()
	defer m.mu.Unlock()
	ws := newWorkerState(info)
	st.workers = append(st.workers, ws)
	if next != nil {
		m.installSessionLocked(st, *next)
	}
	m.publish(workerCreated(info.clone()))
	return ws, st.s, nil
}

// drivingAgentLocked returns the agent worker that drives the session's
// conversation, if it is still alive.
func (t *table) drivingAgentLocked(st *sessionState) *workerState {
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
