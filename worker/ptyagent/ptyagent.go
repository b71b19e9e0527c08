// Package ptyagent is the pty-agent worker kind: the real `claude` CLI's
// interactive UI on a PTY, rendered by xterm.js in the browser. It carries
// the session's Claude conversation (`--session-id` for a new one,
// `--resume` to continue it), keeps the output by absolute offset through
// ptyproc, and tells the activity (active, idle, asking) from what the CLI
// draws (activity.go).
//
// Before the CLI starts, the CLI's config file is seeded so that it comes
// up at its prompt instead of a dialog nobody in the browser expects
// (seed.go); the terminal output says what was changed.
package ptyagent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// Default terminal size when the worker does not name one.
const (
	DefaultCols = 120
	DefaultRows = 32
)

// RestartedMsg is the worker error of a pty-agent whose CLI died with the
// server: the conversation lives on in the session file, not the process.
const RestartedMsg = "the server restarted; start the conversation again with the restart button or switch"

// EarlyExit is how soon after starting a failing exit counts as a start-up
// failure, whose message the worker's error then repeats.
const EarlyExit = 2 * time.Second

// Runtime is a pty-agent worker's runtime. All methods are safe for
// concurrent use. It owns one goroutine, which follows the activity and
// reports the CLI's exit; Stop waits for it.
type Runtime struct {
	env  worker.Env
	slog *slog.Logger
	log  *pty.Log
	det  *detector
	kick chan struct{} // output arrived: re-evaluate the activity

	// Set by New before the goroutine starts, read-only after.
	absent   bool   // the claude binary was not found
	conv     string // the Claude session id
	path     string // the CLI
	cliEnv   []string
	activity atomic.Value // worker.Activity

	// procMu guards proc and started. New sets them; the goroutine may
	// replace them once, when the CLI refused the conversation flag
	// (relaunch).
	procMu  sync.Mutex
	proc    *pty.Proc // nil when no CLI runs: restored, or failed to start
	started time.Time
	// The goroutine's (New's before it starts).
	resume  bool        // the CLI got --resume, not --session-id
	retried bool        // the other flag was tried already
	marked  atomic.Bool // the conversation is recorded as started
	entered atomic.Bool // a tab pressed Enter in the CLI

	mu         sync.Mutex // guards cols, rows
	cols, rows int

	tailMu sync.Mutex // orders tail updates: SetTail, then publish
	tail   [numSlots]*hub.Frame

	storeMsg *string // why output was not stored; owned by the goroutine

	sendMu   sync.Mutex  // one SendUser types at a time
	stopping atomic.Bool // Stop, not the CLI, ended the process
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// The tail frames every new attachment gets after history-end, in order.
const (
	slotActivity = iota
	slotError
	slotExit
	numSlots
)

var (
	_ worker.Factory    = New
	_ worker.Attachable = (*Runtime)(nil)
)

// New builds a pty-agent runtime and starts the CLI. A restored worker
// (env.Restored) starts none: it serves the stored output with status
// exited. A missing CLI or a failed start leaves the worker in status
// error, its output (which says why) still attachable.
func New(ctx context.Context, env worker.Env) (worker.Runtime, error) {
	log, err := pty.OpenLog(env.Store, env.Info.ID)
	if err != nil {
		return nil, fmt.Errorf("open pty-agent %s: %w", env.Info.ID, err)
	}
	r := &Runtime{env: env, slog: env.Log, log: log, kick: make(chan struct{}, 1)}
	if r.slog == nil {
		r.slog = slog.New(slog.DiscardHandler)
	}
	r.slog = r.slog.With("worker", env.Info.ID)
	r.cols, r.rows = env.Info.Cols, env.Info.Rows
	if r.cols <= 0 || r.rows <= 0 {
		r.cols, r.rows = DefaultCols, DefaultRows
	}
	r.det = newDetector(r.cols, r.rows, time.Now)
	if env.Restored {
		r.restore()
		return r, nil
	}
	r.start()
	return r, nil
}

// start seeds the CLI's config, runs it and reports starting → running,
// or error.
func (r *Runtime) start() {
	r.update(func(i *worker.Info) {
		i.Status, i.Cols, i.Rows, i.ExitCode, i.Error = worker.StatusStarting, r.cols, r.rows, nil, nil
	})
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
	if err := r.launch(r.cols, r.rows); err != nil {
		r.failStart(path, err)
		return
	}
	r.update(func(i *worker.Info) { i.Status = worker.StatusRunning })
	r.wg.Go(r.run)
}

// launch runs the CLI for the conversation. The caller holds procMu, or
// is New before the goroutine starts.
func (r *Runtime) launch(cols, rows int) error {
	args := r.conversationArgs()
	p, err := pty.Start(pty.Options{
		Command:  append([]string{r.path}, args...),
		Dir:      r.env.Session.Cwd,
		Env:      r.cliEnv,
		Marker:   r.env.Marker,
		Cols:     cols,
		Rows:     rows,
		Log:      r.log,
		OnOutput: r.onOutput,
	})
	if err != nil {
		return err
	}
	r.proc, r.started = p, time.Now()
	if err := r.env.RecordProcess(p.Ident()); err != nil {
		r.slog.Warn("record pty-agent process", "err", err)
	}
	r.slog.Info("claude started", "args", args, "pid", p.Pid())
	return nil
}

// current returns the CLI process, nil when none was started.
func (r *Runtime) current() *pty.Proc {
	r.procMu.Lock()
	defer r.procMu.Unlock()
	return r.proc
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
	failed := r.log.Failed()
	p := r.current()
	for {
		select {
		case <-r.kick:
		case <-t.C:
		case <-failed:
			r.storeFailed()
			failed = nil
			continue
		case <-p.Done():
			if r.relaunch(p) {
				p = r.current()
				continue
			}
			r.exited(p)
			return
		}
		a, next := r.det.eval()
		r.setActivity(a)
		if !next.IsZero() {
			t.Reset(time.Until(next))
		}
	}
}

// restore serves a pty-agent from storage, without a process.
func (r *Runtime) restore() {
	info := r.env.Info
	code := info.ExitCode
	if info.Status == worker.StatusStarting || info.Status == worker.StatusRunning {
		code = nil
		msg := RestartedMsg
		r.update(func(i *worker.Info) {
			i.Status, i.ExitCode, i.Error = worker.StatusExited, nil, &msg
		})
	}
	r.setActivity(worker.ActivityIdle)
	r.setTail(slotExit, exitMsg{Type: "exit", ExitCode: code})
}

// Stop ends the CLI's session (SIGHUP and SIGTERM, then SIGKILL after
// pty.DefaultGrace or when ctx ends) and waits for it and the
// runtime's goroutine, then ends the live streams. It leaves the worker's
// status to the caller. Safe to call more than once; later calls return
// once the first is done.
func (r *Runtime) Stop(ctx context.Context) error {
	r.stopOnce.Do(func() {
		r.stopping.Store(true)
		// After stopping is set, relaunch starts no other CLI.
		if p := r.current(); p != nil {
			_ = p.Stop(ctx)
		}
		r.wg.Wait()
		r.log.Close()
	})
	return nil
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

func (r *Runtime) update(fn func(*worker.Info)) {
	if r.env.Update != nil {
		r.env.Update(fn)
	}
}
