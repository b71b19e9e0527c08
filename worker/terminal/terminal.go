// Package terminal is the terminal worker kind: a shell (or the command the
// user asked for) on a PTY, its output stored by absolute offset and
// streamed to any number of browser tabs.
package terminal

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// Default terminal size when the worker does not name one.
const (
	DefaultCols = 120
	DefaultRows = 32
)

// RestartedMsg is the worker error of a terminal whose shell died with the
// server: a shell's state cannot be brought back, only its output.
const RestartedMsg = "the server restarted; restart this terminal to get a new shell"

// Terminal is a terminal worker's runtime. All methods are safe for
// concurrent use. It owns one goroutine, which reports the process's exit;
// Stop waits for it.
type Terminal struct {
	env  worker.Env
	slog *slog.Logger
	log  *pty.Log
	proc *pty.Proc // nil when no process runs: restored, or failed to start

	mu         sync.Mutex // guards cols, rows
	cols, rows int

	storeMsg *string // why output was not stored; owned by the watch goroutine

	stopping atomic.Bool // Stop, not the process, ended the process
	stopOnce sync.Once
	wg       sync.WaitGroup
}

var (
	_ worker.Factory    = New
	_ worker.Attachable = (*Terminal)(nil)
)

// New builds a terminal's runtime and starts its process. A restored
// terminal (env.Restored) starts none: its shell died with the server, so it
// serves the stored output and refuses input. A process that fails to start
// leaves the worker in status error, its output still attachable.
func New(ctx context.Context, env worker.Env) (worker.Runtime, error) {
	log, err := pty.OpenLog(env.Store, env.Info.ID)
	if err != nil {
		return nil, fmt.Errorf("open terminal %s: %w", env.Info.ID, err)
	}
	t := &Terminal{env: env, slog: env.Log, log: log}
	if t.slog == nil {
		t.slog = slog.New(slog.DiscardHandler)
	}
	t.slog = t.slog.With("worker", env.Info.ID)
	if env.Restored {
		t.restore()
		return t, nil
	}
	t.start()
	return t, nil
}

// start runs the process and reports starting → running, or error.
func (t *Terminal) start() {
	info := t.env.Info
	t.cols, t.rows = info.Cols, info.Rows
	if t.cols <= 0 || t.rows <= 0 {
		t.cols, t.rows = DefaultCols, DefaultRows
	}
	t.update(func(i *worker.Info) {
		i.Status, i.Cols, i.Rows = worker.StatusStarting, t.cols, t.rows
	})
	p, err := pty.Start(pty.Options{
		Command: command(t.env),
		Dir:     t.env.Session.Cwd,
		Env:     childEnv(t.env.Config.ChildEnv),
		Marker:  t.env.Marker,
		Cols:    t.cols,
		Rows:    t.rows,
		Log:     t.log,
	})
	if err != nil {
		t.failStart(err)
		return
	}
	t.proc = p
	if err := t.env.RecordProcess(p.Ident()); err != nil {
		t.slog.Warn("record terminal process", "err", err)
	}
	t.update(func(i *worker.Info) {
		i.Status, i.ExitCode, i.Error = worker.StatusRunning, nil, nil
	})
	t.wg.Go(t.watch)
}

func (t *Terminal) failStart(err error) {
	msg := err.Error()
	t.slog.Warn("start terminal", "err", err)
	t.update(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, &msg })
	t.publishTail(errorMsg{Type: "error", Code: "start_failed", Message: msg})
}

// watch reports a storage failure of the output when it happens, and the
// process's exit once all its output is logged and committed.
func (t *Terminal) watch() {
	failed := t.log.Failed()
	for running := true; running; {
		select {
		case <-failed:
			t.storeFailed()
			failed = nil
		case <-t.proc.Done():
			running = false
		}
	}
	code, sig := t.proc.ExitStatus()
	if err := t.env.Store.DeleteProcess(t.env.Info.ID); err != nil {
		t.slog.Warn("forget terminal process group", "err", err)
	}
	// The last output is stored (or refused) before the exit is reported,
	// so that a failure to store it is reported too.
	_ = t.log.Sync(context.Background())
	if failed != nil && t.log.Err() != nil {
		t.storeFailed()
	}
	exit := exitMsg{Type: "exit", ExitCode: &code}
	if sig != "" {
		exit = exitMsg{Type: "exit", Signal: &sig}
	}
	t.publishTail(exit)
	// A stop comes from the manager (worker deleted, server shutting
	// down), which owns the status then: recording "killed by SIGHUP" at
	// shutdown would hide from the restored worker that the server, not
	// the user, ended the shell.
	if t.stopping.Load() {
		return
	}
	t.update(func(i *worker.Info) {
		i.Status, i.ExitCode, i.Error = worker.StatusExited, exit.ExitCode, t.storeMsg
		if sig != "" {
			msg := "killed by signal " + sig
			if t.storeMsg != nil {
				msg += "; " + *t.storeMsg
			}
			i.Error = &msg
		}
	})
}

// storeFailed tells the tabs, now and on every later attach, that output
// could not be stored, and sets the worker's error. The status stays: the
// shell still runs and takes input, and output is saved again once the
// disk has room.
func (t *Terminal) storeFailed() {
	err := t.log.Err()
	code, msg := pty.StoreFailure(err)
	t.slog.Error("terminal output not stored", "err", err)
	t.storeMsg = &msg
	t.publishTail(errorMsg{Type: "error", Code: code, Message: msg})
	if !t.stopping.Load() { // see watch
		t.update(func(i *worker.Info) { i.Error = &msg })
	}
}

// restore serves a terminal from storage, without a process.
func (t *Terminal) restore() {
	info := t.env.Info
	t.cols, t.rows = info.Cols, info.Rows
	code := info.ExitCode
	if info.Status == worker.StatusStarting || info.Status == worker.StatusRunning {
		code = nil
		msg := RestartedMsg
		t.update(func(i *worker.Info) {
			i.Status, i.ExitCode, i.Error = worker.StatusExited, nil, &msg
		})
	}
	f, err := pty.JSONFrame(exitMsg{Type: "exit", ExitCode: code})
	if err != nil {
		t.slog.Error("restore terminal", "err", err)
		return
	}
	t.log.SetTail(f)
}

// Stop ends the process's session and waits for it, then ends the live
// streams. It leaves the worker's status to the caller. Safe to call more
// than once; later calls return once the first is done.
func (t *Terminal) Stop(ctx context.Context) error {
	t.stopOnce.Do(func() {
		t.stopping.Store(true)
		if t.proc != nil {
			_ = t.proc.Stop(ctx)
		}
		t.wg.Wait()
		t.log.Close()
	})
	return nil
}

func (t *Terminal) update(fn func(*worker.Info)) {
	if t.env.Update != nil {
		t.env.Update(fn)
	}
}

func (t *Terminal) publishTail(v any) {
	if err := t.log.PublishTail(v); err != nil {
		t.slog.Error("publish terminal frame", "err", err)
	}
}

// exitMsg is the exit frame: exitCode on a normal exit, signal when a
// signal ended the process, both null when the status is unknown.
type exitMsg struct {
	Type     string  `json:"type"`
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

type errorMsg struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}
