package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// The session option "sandbox" (docs/api-extensions.md, "Sandboxed
// sessions").
const (
	SandboxOff          = string(sandbox.Off)
	SandboxWorkspace    = string(sandbox.Workspace)
	SandboxWorkspaceNet = string(sandbox.WorkspaceNet)
)

// SandboxView is what a sandboxed session's box shows (sandbox.View).
type SandboxView = sandbox.View

// SandboxOptions configure sandboxed sessions (Options.Sandbox): every
// process of such a session's workers runs in a box of its level
// (internal/launch/sandbox), nothing of it outside.
type SandboxOptions struct {
	// Dir holds each sandboxed session's private home, <Dir>/<session>/home,
	// removed with the session. Its parent (agentdesk's data directory,
	// with the token) is never shown in a box.
	Dir string
	// Tools are bwrap and socat as found at start-up (sandbox.Probe).
	Tools sandbox.Tools
	// Agents say what each agent CLI needs in a box.
	Agents []AgentBox
	// ReadOnly are further directories every box reads (the agents'
	// install directories).
	ReadOnly []string
	// Forbidden are further paths no box may show; the user's home (HOME)
	// and Dir's parent always are.
	Forbidden []string
}

// AgentBox is what one agent CLI needs in a sandboxed session, said by
// the wiring that knows the agent: the launcher and the manager know none.
type AgentBox struct {
	// ConfigVar names the variable of its config directory; in a box that
	// is <home>/<ConfigName>, in every process's environment and in the
	// session's Config.ChildEnv (where the domain reads its files).
	ConfigVar, ConfigName string
	// Pass are its variables the box keeps ("NAME" or "PREFIX*"); Set are
	// "KEY=value" set in the box.
	Pass, Set []string
	// EndpointVar names the variable holding its API's URL, and
	// EndpointURL is that URL when Config.ChildEnv has none; "" for an
	// agent that needs no network.
	EndpointVar, EndpointURL string
	// Prepare fills the config directory dir before the session's box
	// first runs a process in this run of agentdesk: the CLI's login
	// copied in, an adopted conversation. May be nil.
	Prepare func(dir string, sess Session) error
}

// sessionBox is one sandboxed session's box: its options, worked out when
// the session is created or loaded, and the Box, opened when a process
// first needs it and closed with the session.
type sessionBox struct {
	opts sandbox.Options
	view SandboxView
	err  error // the options could not be made: nothing starts

	mu  sync.Mutex
	box *sandbox.Box
}

// Sandboxed reports whether a session's processes run in a box.
func (s Session) Sandboxed() bool { return s.Sandbox != "" && s.Sandbox != SandboxOff }

// checkSandbox refuses a level this server cannot run, before anything of
// a new session is made.
func (m *Manager) checkSandbox(level string) (string, error) {
	switch {
	case level == "" || level == SandboxOff:
		return SandboxOff, nil
	case !sandbox.Level(level).Valid():
		return "", fieldErr("sandbox", `must be "off", "workspace" or "workspace+net", got %q`, level)
	case m.sandbox == nil:
		return "", &CodeError{Code: wire.CodeSandboxUnavailable, Err: errors.New("this server runs no sandboxed sessions")}
	}
	if err := m.sandbox.Tools.Check(sandbox.Level(level)); err != nil {
		return "", &CodeError{Code: wire.CodeSandboxUnavailable, Err: err}
	}
	return level, nil
}

// newSessionBox works out a sandboxed session's box; nil for one that is
// not sandboxed.
func (m *Manager) newSessionBox(s Session) *sessionBox {
	if !s.Sandboxed() {
		return nil
	}
	sb := &sessionBox{}
	if m.sandbox == nil {
		sb.err = &CodeError{Code: wire.CodeSandboxUnavailable, Err: errors.New("this server runs no sandboxed sessions: the session's workers cannot start")}
		return sb
	}
	sb.opts = m.boxOptions(s)
	sb.view, sb.err = sandbox.ViewOf(sb.opts)
	if errors.Is(sb.err, sandbox.ErrForbidden) {
		sb.err = fieldErr("cwd", "a sandboxed session cannot run in %s: the box would show your home directory or agentdesk's data; choose a project directory", s.Cwd)
	}
	return sb
}

// boxOptions are the options of session s's box.
func (m *Manager) boxOptions(s Session) sandbox.Options {
	so := m.sandbox
	home := filepath.Join(so.Dir, s.ID, "home")
	writable, protect := gitPaths(s.Cwd)
	o := sandbox.Options{
		Level: sandbox.Level(s.Sandbox), Home: home,
		Writable: append([]string{s.Cwd}, writable...), Protect: protect,
		ReadOnly:  so.ReadOnly,
		Forbidden: append([]string{filepath.Dir(so.Dir)}, so.Forbidden...),
		Bwrap:     so.Tools.Bwrap, Socat: so.Tools.Socat, Log: m.log,
	}
	if h, err := os.UserHomeDir(); err == nil {
		o.Forbidden = append(o.Forbidden, h)
	}
	for _, a := range so.Agents {
		o.Pass = append(o.Pass, a.Pass...)
		o.Set = append(append(o.Set, a.Set...), a.ConfigVar+"="+filepath.Join(home, a.ConfigName))
		if a.EndpointVar == "" {
			continue
		}
		url := cmp.Or(lookupEnv(m.cfg.ChildEnv, a.EndpointVar), a.EndpointURL)
		e := sandbox.Endpoint{Var: a.EndpointVar, URL: url}
		if url != "" && !slices.Contains(o.Endpoints, e) {
			o.Endpoints = append(o.Endpoints, e)
		}
	}
	return o
}

// sessionConfig is the Config the workers of a session get: in a box, the
// agents' config directories are the box's, named in ChildEnv (where the
// domain reads their files: history import, adoption), and no other
// config directory applies.
func (m *Manager) sessionConfig(s Session) Config {
	cfg := m.cfg
	if !s.Sandboxed() || m.sandbox == nil {
		return cfg
	}
	home := filepath.Join(m.sandbox.Dir, s.ID, "home")
	var dirs []string
	for _, a := range m.sandbox.Agents {
		dirs = append(dirs, a.ConfigVar+"="+filepath.Join(home, a.ConfigName))
	}
	cfg.ChildEnv = childproc.Env(cfg.ChildEnv, "", dirs...)
	cfg.ClaudeConfigDir = ""
	return cfg
}

// launcherFor is the launcher of session s's processes: the server's, or
// its box (boxLauncher).
func (m *Manager) launcherFor(s Session) launch.Launcher {
	if !s.Sandboxed() {
		return m.launcher
	}
	return boxLauncher{m: m, s: s}
}

// boxLauncher starts a sandboxed session's processes in its box, opened
// (and its agents' config directories prepared) by the first one. A box
// that cannot open fails the start: nothing of a sandboxed session runs
// outside its box.
type boxLauncher struct {
	m *Manager
	s Session
}

func (l boxLauncher) Start(ctx context.Context, spec launch.Spec) (*launch.Process, error) {
	b, err := l.m.openBox(l.s)
	if err != nil {
		return nil, err
	}
	return b.Start(ctx, spec)
}

// openBox opens session s's box, if it is not open.
func (m *Manager) openBox(s Session) (*sandbox.Box, error) {
	sb := m.boxOf(s.ID)
	if sb == nil {
		return nil, fmt.Errorf("session %s has no sandbox: %w", s.ID, ErrNotFound)
	}
	return sb.open(m, s)
}

// boxOf is session sid's box, nil when it has none.
func (m *Manager) boxOf(sid string) *sessionBox {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if st := m.sessions[sid]; st != nil {
		return st.box
	}
	return nil
}

func (sb *sessionBox) open(m *Manager, s Session) (*sandbox.Box, error) {
	if sb.err != nil {
		return nil, sb.err
	}
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.box != nil {
		return sb.box, nil
	}
	if err := os.MkdirAll(sb.opts.Home, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox home: %w", err)
	}
	for _, a := range m.sandbox.Agents {
		dir := filepath.Join(sb.opts.Home, a.ConfigName)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("sandbox config dir: %w", err)
		}
		if a.Prepare != nil {
			if err := a.Prepare(dir, s); err != nil {
				return nil, fmt.Errorf("prepare the sandbox: %w", err)
			}
		}
	}
	b, err := sandbox.New(sb.opts)
	if err != nil {
		return nil, &CodeError{Code: wire.CodeSandboxUnavailable, Err: fmt.Errorf("open the sandbox: %w", err)}
	}
	sb.box = b
	return b, nil
}

// close ends the box's bridges; the next process opens it again.
func (sb *sessionBox) close() {
	if sb == nil {
		return
	}
	sb.mu.Lock()
	b := sb.box
	sb.box = nil
	sb.mu.Unlock()
	if b != nil {
		b.Close()
	}
}

// closeBoxes ends every session's box (Close).
func (m *Manager) closeBoxes() {
	m.mu.RLock()
	var sbs []*sessionBox
	for _, st := range m.sessions {
		sbs = append(sbs, st.box)
	}
	m.mu.RUnlock()
	for _, sb := range sbs {
		sb.close()
	}
}

// removeBox ends a deleted session's box and removes its private home.
func (m *Manager) removeBox(sid string, sb *sessionBox) {
	if sb == nil || m.sandbox == nil {
		return
	}
	sb.close()
	if err := os.RemoveAll(filepath.Join(m.sandbox.Dir, sid)); err != nil {
		m.log.Error("remove the sandbox home of a deleted session", "session", sid, "err", err)
	}
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if len(env[i]) > len(key) && env[i][:len(key)] == key && env[i][len(key)] == '=' {
			return env[i][len(key)+1:]
		}
	}
	return ""
}

// SandboxLevel is one sandbox level and whether this server runs it.
type SandboxLevel struct {
	Level     string `json:"level"`
	Available bool   `json:"available"`
	// Reason says why not, and what to install.
	Reason string `json:"reason,omitempty"`
}

// SandboxLevels lists the levels of the session option "sandbox" and
// whether each can run here, as found at start-up.
func (m *Manager) SandboxLevels() []SandboxLevel {
	out := []SandboxLevel{{Level: SandboxOff, Available: true}}
	for _, l := range []string{SandboxWorkspace, SandboxWorkspaceNet} {
		_, err := m.checkSandbox(l)
		sl := SandboxLevel{Level: l, Available: err == nil}
		if err != nil {
			sl.Reason = err.Error()
		}
		out = append(out, sl)
	}
	return out
}
