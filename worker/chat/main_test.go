package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
	"github.com/agentdesk/agentdesk/internal/usage"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// fakeBin is the fakeclaude program, built once for the package.
var fakeBin string

// leakOpts are the package's goleak options: nothing ignored.
var leakOpts []goleak.Option

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "chat-fakeclaude-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeBin, err = fakeclaudetest.Build(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(leakOpts...); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// claudeFactory is the chat kind driven by the claude CLI at path (the
// real one, or fakeclaude), as main wires it.
func claudeFactory(path string) worker.Factory {
	return Factory(claude.NewDriver(claude.Config{Path: path}))
}

// waitFor bounds every wait of these tests.
const waitFor = 2 * time.Minute

// harness is one sdk runtime on a real store, with a fake manager that
// records what the runtime reports.
type harness struct {
	t     *testing.T
	store *persist.Store
	env   worker.Env
	rt    *Runtime
	dir   string // scratch: wrapper script, args log
	// dbPath is the store's file when the harness opened it.
	dbPath string

	mu      sync.Mutex
	info    worker.Info
	conv    string
	started int // ConversationStarted calls
	updated chan struct{}
	// rateLimit is the last state the meter reported.
	rateLimit *usage.RateLimit
}

type harnessOptions struct {
	store    *persist.Store // shared store (restart tests); nil: a new one
	conv     string         // the session's claudeSessionId
	started  bool           // the session's claudeSessionStarted
	restored bool
	path     string        // the CLI; "" means the wrapper around fakeclaude
	env      []string      // extra child environment (FAKECLAUDE_*)
	baseEnv  []string      // the child environment base; nil: this process's
	cwd      string        // the session's directory; "": a new temp dir
	status   worker.Status // the worker's stored status; "": starting
	marker   string        // the worker's AGENTDESK_WORKER marker; "": none
	clock    clock         // the runtime's clock; nil: the real one
	stall    time.Duration // worker.Config.StallAfter
	// driver drives the chat instead of the claude CLI (an
	// agenttest.Driver: no process runs).
	driver agent.Driver
	// The session's tool bridge, the worker's allowed tools and limits,
	// the session's MCP servers, and what the conversation cost before.
	tools   *toolbridge.Registry
	allowed []string
	limits  worker.Limits
	mcp     []worker.MCPServer
	spent   func() (float64, error)
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	h := &harness{t: t, dir: t.TempDir(), updated: make(chan struct{}, 1)}
	h.store = o.store
	if h.store == nil {
		h.dbPath = filepath.Join(t.TempDir(), "agentdesk.db")
		st, err := persist.Open(h.dbPath, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		h.store = st
	}
	path := o.path
	if path == "" {
		path = h.wrapper()
	}
	h.info = worker.Info{ID: "w1", SessionID: "s1", Kind: worker.KindSDK, Status: worker.StatusStarting}
	if o.status != "" {
		h.info.Status = o.status
	}
	cwd := o.cwd
	if cwd == "" {
		cwd = t.TempDir()
	}
	h.info.AllowedTools, h.info.Limits = o.allowed, o.limits
	sess := worker.Session{ID: "s1", Cwd: cwd, MCPServers: o.mcp}
	base := o.baseEnv
	if base == nil {
		base = os.Environ()
	}
	if o.conv != "" {
		sess.ClaudeSessionID = &o.conv
		sess.ClaudeSessionStarted = o.started
	}
	h.env = worker.Env{
		Info: h.info, Session: sess, Store: h.store, Restored: o.restored,
		Config: worker.Config{
			ClaudePath: path,
			ChildEnv:   append(base, append([]string{"FAKE_ARGS_LOG=" + h.argsLog(), "FAKE_FLAG=" + h.flag()}, o.env...)...),
			StallAfter: o.stall,
			Tools:      o.tools,
		},
		SpentUSD:            o.spent,
		Report:              reporter{h},
		Marker:              o.marker,
		SetClaudeSession:    func(id string) { h.mu.Lock(); h.conv = id; h.mu.Unlock() },
		ConversationStarted: func() { h.mu.Lock(); h.started++; h.mu.Unlock() },
	}
	factory := claudeFactory(path)
	if o.driver != nil {
		factory = Factory(o.driver)
	}
	rt, err := factory(t.Context(), h.env)
	if err != nil {
		t.Fatal(err)
	}
	h.rt = rt.(*Runtime)
	if o.clock != nil {
		// Before any turn: nothing reads it yet.
		h.rt.guard.clock = o.clock
	}
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := h.rt.Stop(ctx); err != nil {
		h.t.Errorf("Stop: %v", err)
	}
}

func (h *harness) update(fn func(*worker.Info)) {
	h.mu.Lock()
	fn(&h.info)
	h.mu.Unlock()
	select {
	case h.updated <- struct{}{}:
	default:
	}
}

// reporter is the harness's worker.Reporter: it applies each report to
// h.info the way the manager's reporter does.
type reporter struct{ h *harness }

func (r reporter) Running() {
	r.h.update(func(i *worker.Info) { i.Status, i.Error, i.ExitCode = worker.StatusRunning, nil, nil })
}

func (r reporter) Failed(err error) {
	msg := err.Error()
	r.h.update(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, &msg })
}

func (r reporter) Exited(code int, sig, note string) {
	r.h.update(func(i *worker.Info) { i.Status, i.ExitCode = worker.StatusExited, &code })
}

func (r reporter) Activity(a worker.Activity) {
	r.h.update(func(i *worker.Info) { i.Activity = &a })
}

func (r reporter) Size(cols, rows int) {
	r.h.update(func(i *worker.Info) { i.Cols, i.Rows = cols, rows })
}

func (r reporter) Problem(msg string) { r.h.update(func(i *worker.Info) { i.Error = &msg }) }
func (r reporter) Base(base string)   { r.h.update(func(i *worker.Info) { i.Base = base }) }
func (r reporter) RateLimit(rl usage.RateLimit) {
	r.h.update(func(*worker.Info) { r.h.rateLimit = &rl })
}

func (r reporter) Current(c worker.Current) {
	r.h.update(func(i *worker.Info) { i.Current = &c })
}

func (h *harness) argsLog() string { return filepath.Join(h.dir, "args.log") }
func (h *harness) flag() string    { return filepath.Join(h.dir, "fail") }

// wrapper writes a script that logs its arguments, fails at start while
// the flag file exists, and otherwise runs fakeclaude.
func (h *harness) wrapper() string {
	p := filepath.Join(h.dir, "claude")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$FAKE_ARGS_LOG\"\n" +
		"if [ -e \"$FAKE_FLAG\" ]; then export FAKECLAUDE_EXIT_AT_START=3; fi\n" +
		"exec " + fakeBin + " \"$@\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// args returns the argument lines the wrapper logged, one per start.
func (h *harness) args() []string {
	b, _ := os.ReadFile(h.argsLog())
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// waitInfo waits until cond holds for the reported worker.
func (h *harness) waitInfo(cond func(worker.Info) bool) worker.Info {
	h.t.Helper()
	deadline := time.After(waitFor)
	for {
		h.mu.Lock()
		info := h.info
		h.mu.Unlock()
		if cond(info) {
			return info
		}
		select {
		case <-h.updated:
		case <-deadline:
			h.t.Fatalf("worker info never matched; last %+v", info)
		}
	}
}
