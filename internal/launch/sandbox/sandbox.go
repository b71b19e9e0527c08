// Package sandbox is a Launcher that runs every process it starts inside a
// bubblewrap box (bwrap): the system read-only, a few directories
// writable (a work tree, a private home), a private /tmp and /run, its own
// PID, IPC, UTS, user and network namespaces, no capabilities, and a clean
// environment. With Workspace the box's network holds loopback only: the
// services it needs (an agent's model API) are reached through bridges the
// Box owns, a unix socket each, bound into the box, where socat listens on
// a loopback port and forwards to it; outside, the Box forwards to the one
// address allowed. With WorkspaceNet the host's network is shared and no
// bridge runs.
//
// The launcher knows no agent: what a program needs in the box (its config
// directory, its variables, its API) is given in Options.
//
// Processes: bwrap is the child the handle tracks (it leads the process
// group, and its descendants are the box's processes, seen by their host
// pids). No process of a box carries the worker's marker (AGENTDESK_WORKER):
// the box's init is a fork of bwrap whose environment the box can read, and
// no AGENTDESK_* variable may be seen inside. With --die-with-parent the whole
// box dies when bwrap or its parent (agentdesk) dies, whatever signal
// ended them; --unshare-pid makes a process in the box unable to leave
// it.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentdesk/agentdesk/internal/launch"
)

// Level is how much a box shuts out.
type Level string

// The levels of the session option "sandbox" (docs/api-extensions.md).
const (
	Off          Level = "off"           // no box: processes run as the user
	Workspace    Level = "workspace"     // loopback only, the endpoints through bridges
	WorkspaceNet Level = "workspace+net" // the host's network shared
)

// Valid reports whether l is one of the levels.
func (l Level) Valid() bool { return l == Off || l == Workspace || l == WorkspaceNet }

// Options describe one box. Paths must be absolute.
type Options struct {
	Level Level // Workspace or WorkspaceNet
	// Home is the box's private home: HOME inside, writable, created
	// (mode 0700) when missing.
	Home string
	// Writable are the directories the box may change besides Home (a work
	// tree, its git directory), bound at the same path.
	Writable []string
	// ReadOnly are the directories it may read besides the system's
	// (/usr, /etc): a program's install directory. The directory of each
	// program started is added by Start when it is not visible otherwise.
	ReadOnly []string
	// Protect are paths inside Writable that stay read-only (a git
	// directory's config and hooks, which git outside the box runs). A
	// missing one is skipped.
	Protect []string
	// Forbidden are paths the box must never see: a Writable or ReadOnly
	// path that is one of them or holds one is refused (the user's home,
	// agentdesk's data directory).
	Forbidden []string
	// Pass names the variables a Spec's environment keeps inside the box:
	// "NAME", or "PREFIX*". Everything else is dropped (--clearenv), and
	// AGENTDESK_* never passes. PATH, TERM, COLORTERM, LANG, LC_*, TZ and
	// NO_COLOR always pass; HOME is Home and TMPDIR /tmp.
	Pass []string
	// Set are "KEY=value" entries every process in the box gets.
	Set []string
	// Endpoints are the network services the box reaches (Workspace: only
	// these, through a bridge each).
	Endpoints []Endpoint
	// Bwrap and Socat are the programs (Probe finds them).
	Bwrap, Socat string
	Log          *slog.Logger
}

// Endpoint is one service a box reaches: Var holds its URL in the box's
// environment. An http:// URL is bridged as it is: inside, Var names the
// bridge (http://127.0.0.1:<port>/path). An https:// one keeps its URL, so
// TLS is checked end to end, and the bridge is an HTTP CONNECT proxy
// (HTTPS_PROXY inside) that lets through a tunnel to that host and port
// only. Var "" is an endpoint the program finds in its own config: its
// address is kept (an https one through the proxy; an http one only on
// loopback, 127.0.0.1 or localhost, where its bridge listens on the same
// port in the box).
type Endpoint struct {
	Var string
	URL string
}

// ErrForbidden is a box that would show a path it must not.
var ErrForbidden = errors.New("the sandbox would show a forbidden path")

// Box is a Launcher running every Spec inside one box. Processes of one
// Box share its writable directories and bridges, not their namespaces:
// each Start is a box of its own. Close ends the bridges; the processes
// are their callers'. All methods are safe for concurrent use.
type Box struct {
	o      Options
	plan   plan
	runDir string // host side of the bridges (unix sockets)

	mu      sync.Mutex
	bridges []*bridge
	closed  bool
}

var _ launch.Launcher = (*Box)(nil)

// New checks o, creates Home and starts the bridges. The caller closes
// the Box.
func New(o Options) (*Box, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Level != Workspace && o.Level != WorkspaceNet {
		return nil, fmt.Errorf("sandbox level %q: %w", o.Level, launch.ErrInvalid)
	}
	if o.Bwrap == "" || (o.Level == Workspace && len(o.Endpoints) > 0 && o.Socat == "") {
		return nil, fmt.Errorf("sandbox: %w: bwrap or socat not given", launch.ErrInvalid)
	}
	if err := os.MkdirAll(o.Home, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox home: %w", err)
	}
	p, err := makePlan(o)
	if err != nil {
		return nil, err
	}
	b := &Box{o: o, plan: p}
	if o.Level == Workspace && len(p.links) > 0 {
		if err := b.startBridges(); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// View is what the box shows, as the API lists it.
func (b *Box) View() View { return b.plan.view }

// ViewOf is what a Box made with o would show, or why New would refuse
// o; it starts nothing and creates nothing.
func ViewOf(o Options) (View, error) {
	p, err := makePlan(o)
	return p.view, err
}

// Start runs s inside the box. The handle tracks bwrap; Program finds the
// program once bwrap started it.
func (b *Box) Start(ctx context.Context, s launch.Spec) (*launch.Process, error) {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("start %s: the sandbox is closed: %w", firstArg(s.Argv), launch.ErrInvalid)
	}
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return nil, fmt.Errorf("start process: %w: no program", launch.ErrInvalid)
	}
	argv, env, err := b.argv(s)
	if err != nil {
		return nil, err
	}
	s.Argv, s.Env = argv, env
	s.Dir = "" // bwrap --chdir sets it inside
	// No marker, not even on bwrap: the box's init is a fork of bwrap, and
	// every process in the box may read its environment. The box needs
	// none: nothing leaves its PID namespace, so every process of it is
	// found below bwrap by the parent chain, and all die with bwrap.
	s.Marker = ""
	p, err := launch.Local{}.Start(ctx, s)
	if err != nil {
		return nil, err
	}
	root := p.Pid()
	p.FindProgram(func() int { return program(root) })
	return p, nil
}

// Close stops the bridges and waits for their goroutines, and removes
// their sockets. Processes still in a box lose their endpoints. Safe to
// call more than once.
func (b *Box) Close() {
	b.mu.Lock()
	brs := b.bridges
	b.bridges, b.closed = nil, true
	b.mu.Unlock()
	for _, br := range brs {
		br.close()
	}
	if b.runDir != "" {
		_ = os.RemoveAll(b.runDir)
	}
}

// startBridges listens on a unix socket per endpoint, in a new directory
// of the system's temp dir (a socket's path must stay under 108 bytes).
func (b *Box) startBridges() error {
	dir, err := os.MkdirTemp("", "agentdesk-box-")
	if err != nil {
		return fmt.Errorf("sandbox bridge: %w", err)
	}
	b.runDir = dir
	for i, l := range b.plan.links {
		br, err := listen(filepath.Join(dir, sockName(i)), l, b.o.Log)
		if err != nil {
			return err
		}
		b.mu.Lock()
		b.bridges = append(b.bridges, br)
		b.mu.Unlock()
	}
	return nil
}

func firstArg(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return argv[0]
}
