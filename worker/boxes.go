package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// boxes makes the sandboxed sessions' boxes for the Manager: their
// options, the Config and the launcher their workers get. Safe for
// concurrent use; it holds no state of its own.
type boxes struct {
	o     *SandboxOptions // nil: no sandboxed session runs
	cfg   Config          // the server's
	local launch.Launcher // what runs the sessions that are not sandboxed
	log   *slog.Logger
}

// sessionBox is one sandboxed session's box: its options, worked out when
// the session is created or loaded, and the Box, opened when a process
// first needs it and closed with the session.
type sessionBox struct {
	opts sandbox.Options
	view SandboxView
	err  error // the options could not be made: nothing starts

	mu   sync.Mutex
	box  *sandbox.Box
	gone bool // the session was deleted: never open again
}

// forSession works out a session's box; nil for one that is not
// sandboxed. A box that cannot be made carries its error.
func (bs boxes) forSession(s Session) *sessionBox {
	if !s.Sandboxed() {
		return nil
	}
	sb := &sessionBox{}
	if bs.o == nil {
		sb.err = &CodeError{Code: wire.CodeSandboxUnavailable, Err: errors.New("this server runs no sandboxed sessions: the session's workers cannot start")}
		return sb
	}
	sb.opts = bs.options(s)
	sb.view, sb.err = sandbox.ViewOf(sb.opts)
	if errors.Is(sb.err, sandbox.ErrForbidden) {
		sb.err = fieldErr("cwd", "a sandboxed session cannot run in %s: the box would show your home directory or agentdesk's data; choose a project directory", s.Cwd)
	}
	return sb
}

func (bs boxes) home(sid string) string { return filepath.Join(bs.o.Dir, sid, "home") }

// options are the options of session s's box.
func (bs boxes) options(s Session) sandbox.Options {
	home := bs.home(s.ID)
	writable, protect := gitPaths(s.Cwd)
	o := sandbox.Options{
		Level: sandbox.Level(s.Sandbox), Home: home,
		Writable: append([]string{s.Cwd}, writable...), Protect: protect,
		ReadOnly:  bs.o.ReadOnly,
		Forbidden: append([]string{filepath.Dir(bs.o.Dir)}, bs.o.Forbidden...),
		Bwrap:     bs.o.Tools.Bwrap, Socat: bs.o.Tools.Socat, Log: bs.log,
	}
	if h, err := os.UserHomeDir(); err == nil {
		o.Forbidden = append(o.Forbidden, h)
	}
	for _, a := range bs.o.Agents {
		o.Pass = append(o.Pass, a.Pass...)
		o.Set = append(append(o.Set, a.Set...), a.ConfigVar+"="+filepath.Join(home, a.ConfigName))
		if a.EndpointVar != "" {
			url := cmp.Or(lookupEnv(bs.cfg.ChildEnv, a.EndpointVar), a.EndpointURL)
			o.Endpoints = addEndpoint(o.Endpoints, sandbox.Endpoint{Var: a.EndpointVar, URL: url})
		}
		if a.FromConfig == nil {
			continue
		}
		urls, pass := a.FromConfig()
		o.Pass = append(o.Pass, pass...)
		for _, u := range urls {
			o.Endpoints = addEndpoint(o.Endpoints, sandbox.Endpoint{URL: u})
		}
	}
	return o
}

// addEndpoint adds e to es unless it is there or has no URL.
func addEndpoint(es []sandbox.Endpoint, e sandbox.Endpoint) []sandbox.Endpoint {
	if e.URL == "" || slices.Contains(es, e) {
		return es
	}
	return append(es, e)
}

// config is the Config the workers of session s get: in a box, the
// agents' config directories are the box's, named in ChildEnv (where the
// domain reads their files: history import, adoption), and no other
// config directory applies.
func (bs boxes) config(s Session) Config {
	cfg := bs.cfg
	if !s.Sandboxed() || bs.o == nil {
		return cfg
	}
	var dirs []string
	for _, a := range bs.o.Agents {
		dirs = append(dirs, a.ConfigVar+"="+filepath.Join(bs.home(s.ID), a.ConfigName))
	}
	cfg.ChildEnv = childproc.Env(cfg.ChildEnv, "", dirs...)
	cfg.ClaudeConfigDir = ""
	return cfg
}

// launcher is the launcher of session s's processes: the server's, or its
// box's (boxLauncher).
func (bs boxes) launcher(s Session, sb *sessionBox) launch.Launcher {
	if sb == nil {
		return bs.local
	}
	return boxLauncher{bs: bs, sb: sb, s: s}
}

// boxLauncher starts a sandboxed session's processes in its box, opened
// (and its agents' config directories prepared) by the first one. A box
// that cannot open fails the start: nothing of a sandboxed session runs
// outside its box.
type boxLauncher struct {
	bs boxes
	sb *sessionBox
	s  Session
}

func (l boxLauncher) Start(ctx context.Context, spec launch.Spec) (*launch.Process, error) {
	b, err := l.bs.open(l.sb, l.s)
	if err != nil {
		return nil, err
	}
	return b.Start(ctx, spec)
}

// open opens session s's box sb, if it is not open.
func (bs boxes) open(sb *sessionBox, s Session) (*sandbox.Box, error) {
	if sb == nil {
		return nil, fmt.Errorf("session %s has no sandbox: %w", s.ID, ErrNotFound)
	}
	if sb.err != nil {
		return nil, sb.err
	}
	sb.mu.Lock()
	defer sb.mu.Unlock()
	switch {
	case sb.gone:
		return nil, fmt.Errorf("session %s was deleted: %w", s.ID, ErrNotFound)
	case sb.box != nil:
		return sb.box, nil
	}
	if err := bs.o.Tools.Check(sb.opts.Level); err != nil {
		// A session stored by a server that could run its box: say what
		// to install, and run nothing.
		return nil, &CodeError{Code: wire.CodeSandboxUnavailable, Err: err}
	}
	if err := bs.prepare(s); err != nil {
		return nil, err
	}
	b, err := sandbox.New(sb.opts)
	if err != nil {
		return nil, &CodeError{Code: wire.CodeSandboxUnavailable, Err: fmt.Errorf("open the sandbox: %w", err)}
	}
	sb.box = b
	return b, nil
}

// prepare makes the box's home and its agents' config directories, and
// has each agent fill its own.
func (bs boxes) prepare(s Session) error {
	if err := os.MkdirAll(bs.home(s.ID), 0o700); err != nil {
		return fmt.Errorf("sandbox home: %w", err)
	}
	for _, a := range bs.o.Agents {
		dir := filepath.Join(bs.home(s.ID), a.ConfigName)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("sandbox config dir: %w", err)
		}
		if a.Prepare == nil {
			continue
		}
		if err := a.Prepare(dir, s); err != nil {
			return fmt.Errorf("prepare the sandbox: %w", err)
		}
	}
	return nil
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

// remove ends a deleted session's box for good and removes its private
// home.
func (bs boxes) remove(sid string, sb *sessionBox) {
	if sb == nil || bs.o == nil {
		return
	}
	sb.mu.Lock()
	sb.gone = true
	sb.mu.Unlock()
	sb.close()
	if err := os.RemoveAll(filepath.Join(bs.o.Dir, sid)); err != nil {
		bs.log.Error("remove the sandbox home of a deleted session", "session", sid, "err", err)
	}
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := cutVar(env[i], key); ok {
			return v
		}
	}
	return ""
}

func cutVar(kv, key string) (string, bool) {
	if len(kv) > len(key) && kv[:len(key)] == key && kv[len(key)] == '=' {
		return kv[len(key)+1:], true
	}
	return "", false
}
