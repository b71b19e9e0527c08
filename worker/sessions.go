package worker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// CreateSessionRequest is the body of POST /api/sessions.
type CreateSessionRequest struct {
	Cwd            string `json:"cwd"`
	Title          string `json:"title"`
	Agent          string `json:"agent"` // "sdk" (default), "pty-agent", "codex" or "none"
	Model          string `json:"model"`
	PermissionMode string `json:"permissionMode"`
	// Repo, Branch and Worktree ask for a new git worktree on a new branch
	// of Repo; the session then runs in it (Cwd must be empty).
	Repo     string `json:"repo"`
	Branch   string `json:"branch"`
	Worktree bool   `json:"worktree"`
	// ClaudeSessionID adopts a conversation the CLI already holds (one
	// started in a terminal): the session's agent worker imports it and
	// the next message resumes it. Options.Adoptable checks that it
	// exists.
	ClaudeSessionID string `json:"claudeSessionId"`
	// Sandbox is the session's sandbox level: "off" (the default),
	// "workspace" or "workspace+net" (sandbox.go).
	Sandbox string `json:"sandbox"`
	// AllowedTools and Limits are the agent worker's (WorkerRequest).
	AllowedTools []string `json:"allowedTools"`
	Limits
}

const maxTitle = 200

// ValidateCwd checks that dir is an absolute path to an existing directory
// and returns it cleaned.
func ValidateCwd(dir string) (string, error) {
	if dir == "" {
		return "", fieldErr("cwd", "is required: the absolute path of the session's working directory")
	}
	if !filepath.IsAbs(dir) {
		return "", fieldErr("cwd", "must be an absolute path, got %q", dir)
	}
	dir = filepath.Clean(dir)
	fi, err := os.Stat(dir)
	if err != nil {
		return "", fieldErr("cwd", "%q does not exist or cannot be read", dir)
	}
	if !fi.IsDir() {
		return "", fieldErr("cwd", "%q is not a directory", dir)
	}
	return dir, nil
}

func validateTitle(t string) (string, error) {
	t = strings.TrimSpace(t)
	if !utf8.ValidString(t) {
		return "", fieldErr("title", "must be valid UTF-8")
	}
	if utf8.RuneCountInString(t) > maxTitle {
		return "", fieldErr("title", "must be at most %d characters", maxTitle)
	}
	return t, nil
}

// CreateSession validates req, stores the session and starts its first
// workers: an agent worker (unless Agent is "none") and a git-diff worker
// when the directory is a git work tree.
func (m *Manager) CreateSession(ctx context.Context, req CreateSessionRequest) (Session, error) {
	if req.ClaudeSessionID != "" && m.adoptable != nil {
		if err := m.adoptable(req.Cwd, req.ClaudeSessionID); err != nil {
			return Session{}, err
		}
	}
	title, err := validateTitle(req.Title)
	if err != nil {
		return Session{}, err
	}
	agent, err := m.agentKind(req.Agent)
	if err != nil {
		return Session{}, err
	}
	wr := WorkerRequest{Kind: agent, Model: req.Model, PermissionMode: req.PermissionMode, AllowedTools: req.AllowedTools, Limits: req.Limits}
	if req.Agent == AgentCodex {
		wr.Agent = AgentCodex
	}
	if agent == "" && (len(req.AllowedTools) > 0 || !req.Limits.IsZero()) {
		return Session{}, fieldErr("agent", "allowedTools and limits need an agent worker; leave agent out or set it to sdk")
	}
	if agent != "" {
		if _, err := wr.info(); err != nil {
			return Session{}, err // checked before anything is stored
		}
	}
	level, err := m.boxes.o.check(req.Sandbox)
	if err != nil {
		return Session{}, err
	}
	if err := (Session{Sandbox: level}).boxedLimits(req.Limits); err != nil {
		return Session{}, err
	}
	var wt *Worktree
	var setup string
	cwd := req.Cwd
	if req.Worktree {
		if wt, err = m.addWorktree(ctx, req); err != nil {
			return Session{}, err
		}
		cwd, setup = wt.Path, prepareWorktree(ctx, NewRepos(m.store), m.log, wt)
	} else if req.Repo != "" || req.Branch != "" {
		return Session{}, fieldErr("worktree", "must be true when repo or branch is given")
	}
	if cwd, err = ValidateCwd(cwd); err != nil {
		return Session{}, err
	}
	if title == "" {
		title = filepath.Base(cwd)
	}
	now := m.now()
	st := &sessionState{s: Session{ID: uuid.Must(uuid.NewV7()).String(), Title: title, Cwd: cwd, CreatedAt: now, UpdatedAt: now, Worktree: wt, Sandbox: level}}
	if st.box = m.boxes.forSession(st.s); st.box != nil && st.box.err != nil {
		if wt != nil {
			dropWorktree(ctx, m.log, wt)
		}
		return Session{}, st.box.err
	}
	if id := req.ClaudeSessionID; id != "" {
		// An adopted conversation has begun: its agent workers resume it.
		st.s.ClaudeSessionID, st.s.ClaudeSessionStarted = &id, true
	}
	if err := m.addSession(st); err != nil {
		return Session{}, err
	}

	if agent != "" {
		if _, err := m.CreateWorker(ctx, st.s.ID, wr); err != nil {
			m.log.Error("start agent worker", "session", st.s.ID, "err", err)
		}
	}
	if m.Supports(KindGitDiff) && isGitWorkTree(cwd) {
		if _, err := m.CreateWorker(ctx, st.s.ID, WorkerRequest{Kind: KindGitDiff}); err != nil {
			m.log.Error("start git-diff worker", "session", st.s.ID, "err", err)
		}
	}
	m.startSetup(ctx, st.s.ID, setup)
	return m.Session(st.s.ID)
}

func (m *Manager) agentKind(agent string) (Kind, error) {
	switch agent {
	case "none":
		return "", nil
	case "":
		if m.Supports(KindSDK) {
			return KindSDK, nil
		}
		return "", nil
	case string(KindSDK), string(KindPTYAgent), AgentCodex:
		k := Kind(agent)
		if agent == AgentCodex {
			k = KindSDK // a chat that Codex drives
		}
		if !m.Supports(k) {
			return "", fieldErr("agent", "%s workers are not available in this build", agent)
		}
		return k, nil
	}
	return "", fieldErr("agent", `must be "sdk", "pty-agent", "codex" or "none", got %q`, agent)
}

// isGitWorkTree reports whether dir is inside a git work tree, by looking
// for a .git entry in it or an ancestor (no git process needed).
func isGitWorkTree(dir string) bool {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// RenameSession sets a session's title.
func (m *Manager) RenameSession(id, title string) (Session, error) {
	title, err := validateTitle(title)
	if err != nil {
		return Session{}, err
	}
	if title == "" {
		return Session{}, fieldErr("title", "must not be empty")
	}
	return m.changeSession(id, func(s *Session) { s.Title = title })
}

// addSession stores a new session and broadcasts it.
func (m *Manager) addSession(st *sessionState) error {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	// commitMu orders every change: no other session takes the
	// conversation between this check and the commit.
	if id := st.s.ClaudeSessionID; id != nil {
		m.mu.RLock()
		other := m.sessionWithConversation(*id)
		m.mu.RUnlock()
		if other != "" {
			return fmt.Errorf("the Claude conversation %s is already open in session %s: %w", *id, other, ErrConflict)
		}
	}
	if err := m.putSession(st.s); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return fmt.Errorf("create session: manager closed")
	}
	m.sessions[st.s.ID] = st
	m.publish(sessionCreated(st.snapshot()))
	return nil
}

// DeleteOptions say what else goes with a deleted session.
type DeleteOptions struct {
	RemoveWorktree bool // remove the worktree agentdesk made for it
	Force          bool // even with uncommitted changes
}

// DeleteSession stops the session's workers, ends their processes and
// removes the session and all its data. With RemoveWorktree, the session's
// worktree goes first; when that is refused nothing is deleted.
func (m *Manager) DeleteSession(ctx context.Context, id string, o DeleteOptions) error {
	m.mu.RLock()
	st, ok := m.sessions[id]
	var wt *Worktree
	if ok && o.RemoveWorktree && st.s.Worktree != nil {
		wt = ptr(*st.s.Worktree)
	}
	m.mu.RUnlock()
	if !ok {
		return fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	if wt != nil {
		if err := removeWorktree(ctx, wt, o.Force); err != nil {
			return err
		}
	}
	rts, wids, ok := m.removeSession(id)
	if !ok {
		return nil // deleted meanwhile, while its worktree went
	}
	defer m.boxes.remove(id, st.box)
	defer m.removeSessionDirs(id)  // once its processes are over
	fam := m.trees.family(wids...) // before anything is signalled
	defer fam.Close()
	stopErr := stopAll(ctx, rts, false)
	if len(wids) > 0 {
		markers := make([]string, len(wids))
		for i, wid := range wids {
			markers[i] = m.marker(wid)
		}
		m.endMarked(ctx, childproc.Exact(markers...), fam)
	}
	if err := m.store.Records().DeleteSession(id); err != nil {
		return fmt.Errorf("delete session data: %w", err)
	}
	return stopErr
}

// removeSessionDirs removes a deleted session's directories of
// Options.SessionDirs. A failure is logged: the session is gone anyway.
func (m *Manager) removeSessionDirs(id string) {
	for _, d := range m.sessionDirs {
		if err := os.RemoveAll(filepath.Join(d, id)); err != nil {
			m.log.Error("remove the directory of a deleted session", "session", id, "dir", d, "err", err)
		}
	}
}

// removeSession forgets a session and broadcasts session-deleted; it
// returns the runtimes to stop and their workers' ids. Its data
// is deleted by the caller once they stopped: nothing of it is stored
// again, as no change finds it any more.
func (m *Manager) removeSession(id string) (rts []Runtime, wids []string, ok bool) {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.sessions[id]
	if !ok {
		return nil, nil, false
	}
	delete(m.sessions, id)
	for _, ws := range st.workers {
		ws.deleted = true
		if ws.rt != nil {
			rts = append(rts, ws.rt)
			wids = append(wids, ws.info.ID)
		}
	}
	m.publish(sessionGone(id))
	return rts, wids, true
}
