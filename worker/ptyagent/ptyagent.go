// Package ptyagent is the pty-agent worker kind: the real `claude` CLI's
// interactive UI on a PTY, rendered by xterm.js in the browser. It carries
// the session's Claude conversation (`--session-id` for a new one,
// `--resume` to continue it), keeps the output by absolute offset through
// internal/pty (a pty.Term, shared with the terminal kind), and tells the
// activity (active, idle, asking) from what the CLI draws (activity.go).
//
// Before the CLI starts, the CLI's config file is seeded so that it comes
// up at its prompt instead of a dialog nobody in the browser expects
// (seed.go); the terminal output says what was changed.
package ptyagent

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// Default terminal size when the worker does not name one.
const (
	DefaultCols = pty.DefaultCols
	DefaultRows = pty.DefaultRows
)

// RestartedMsg is the worker error of a pty-agent whose CLI died with the
// server: the conversation lives on in the session file, not the process.
const RestartedMsg = "the server restarted; start the conversation again with the restart button or switch"

// EarlyExit is how soon after starting a failing exit counts as a start-up
// failure, whose message the worker's error then repeats.
const EarlyExit = 2 * time.Second

// Runtime is a pty-agent worker's runtime: the socket, input, resize and
// Stop come from pty.Surface. All methods are safe for concurrent use. It
// owns one goroutine, which follows the activity and reports the CLI's
// exit; Stop waits for it.
type Runtime struct {
	pty.Surface
	term *pty.Term
	env  worker.Env
	slog *slog.Logger
	det  *detector
	kick chan struct{} // output arrived: re-evaluate the activity

	// Set by New before the goroutine starts, read-only after.
	conv     string // the Claude session id
	path     string // the CLI
	cliEnv   []string
	activity atomic.Value // worker.Activity

	// The goroutine's (New's before it starts).
	started time.Time   // when the current CLI started
	resume  bool        // the CLI got --resume, not --session-id
	retried bool        // the other flag was tried already
	marked  atomic.Bool // the conversation is recorded as started
	entered atomic.Bool // a tab pressed Enter in the CLI

	sendMu sync.Mutex // one SendUser types at a time
}

// The abilities the server and the manager find by type assertion.
var (
	_ worker.Factory          = New
	_ worker.Runtime          = (*Runtime)(nil)
	_ worker.Inputter         = (*Runtime)(nil)
	_ worker.Canceller        = (*Runtime)(nil)
	_ worker.ActivityReporter = (*Runtime)(nil)
)

// New builds a pty-agent runtime and starts the CLI. A restored worker
// (env.Restored) starts none: it serves the stored output with status
// exited. A missing CLI or a failed start leaves the worker in status
// error, its output (which says why) still attachable.
func New(ctx context.Context, env worker.Env) (worker.Runtime, error) {
	r := &Runtime{env: env, kick: make(chan struct{}, 1)}
	term, err := pty.NewTerm(pty.TermOptions{
		Name: "pty-agent", ID: env.Info.ID, Store: env.Store, Report: env.Report, Log: env.Log,
		Cols: env.Info.Cols, Rows: env.Info.Rows,
		Record:   env.RecordProcess,
		Forget:   func() error { return env.Store.DeleteProcess(env.Info.ID) },
		OnInput:  r.onInput,
		OnResize: func(cols, rows int) { r.det.resize(cols, rows) },
		OnExit:   r.onExit,
		ExitNote: r.exitNote,
	})
	if err != nil {
		return nil, err
	}
	r.Surface, r.term, r.slog = term.Surface(), term, term.Logger()
	cols, rows := term.Size()
	r.det = newDetector(cols, rows, time.Now)
	r.det.stallAfter = env.Config.StallAfter
	if env.Restored {
		live := env.Info.Status == worker.StatusStarting || env.Info.Status == worker.StatusRunning
		term.Restore(live, env.Info.ExitCode, RestartedMsg)
		r.setActivity(worker.ActivityIdle)
		return r, nil
	}
	r.start()
	return r, nil
}

// start seeds the CLI's config, runs it and reports running, or error.
func (r *Runtime) start() {
	r.env.Report.Size(r.term.Size())
	r.setActivity(worker.ActivityIdle)
	path := claude.Path(r.env.Config.ClaudePath)
	if _, err := claude.Resolve(path); err != nil {
		r.failAbsent(path, err)
		return
	}
	r.path, r.cliEnv = path, r.childEnv()
	r.seed(r.cliEnv)
	r.pickConversation()
	r.marked.Store(r.resume)
	if err := r.launch(); err != nil {
		r.failStart(path, err)
		return
	}
	r.env.Report.Running()
	r.term.Go(r.run)
}

// launch runs the CLI for the conversation. It is New's before the
// goroutine starts, then the goroutine's.
func (r *Runtime) launch() error {
	args := r.conversationArgs()
	err := r.term.Start(pty.Options{
		Command:  append([]string{r.path}, args...),
		Dir:      r.env.Session.Cwd,
		Env:      r.cliEnv,
		Marker:   r.env.Marker,
		OnOutput: r.onOutput,
		Launcher: r.env.Launcher,
	})
	if err != nil {
		return err
	}
	r.started = time.Now()
	r.slog.Info("claude started", "args", loggable(args), "pid", r.term.Current().Pid())
	return nil
}

// onOutput runs on the PTY reader for every chunk: the detector parses it
// (CPU only, no waiting) and the activity goroutine is woken.
func (r *Runtime) onOutput(p []byte) {
	_, _ = r.det.Write(p)
	select {
	case r.kick <- struct{}{}:
	default: // a wake-up is already pending; it covers this chunk
	}
}

// run follows the activity until the CLI exits. It sleeps while nothing
// happens: it wakes for output, and for the one deadline at which time
// alone could change the activity (the end of a quiet period).
func (r *Runtime) run() {
	t := time.NewTimer(time.Hour)
	t.Stop()
	defer t.Stop()
	failed := r.term.Failed()
	p := r.term.Current()
	for {
		select {
		case <-r.kick:
		case <-t.C:
		case <-failed:
			r.term.StoreFailed()
			failed = nil
			continue
		case <-p.Done():
			if r.relaunch(p) {
				p = r.term.Current()
				continue
			}
			r.term.Exit(p)
			return
		}
		a, next := r.det.eval()
		r.setActivity(a)
		if !next.IsZero() {
			t.Reset(time.Until(next))
		}
	}
}

// ConversationID returns the Claude session id the CLI was started with
// ("" when it was not started).
func (r *Runtime) ConversationID() string { return r.conv }

// Screen returns what the CLI's terminal shows now, one line per row, as
// the activity detection sees it (diagnostics and tests).
func (r *Runtime) Screen() string { return strings.Join(r.det.lines(), "\n") }

// Activity returns the current activity.
func (r *Runtime) Activity() worker.Activity {
	a, _ := r.activity.Load().(worker.Activity)
	return a
}
