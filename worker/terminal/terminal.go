// Package terminal is the terminal worker kind: a shell (or the command the
// user asked for) on a PTY, its output stored by absolute offset and
// streamed to any number of browser tabs.
package terminal

import (
	"context"

	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// Default terminal size when the worker does not name one.
const (
	DefaultCols = pty.DefaultCols
	DefaultRows = pty.DefaultRows
)

// RestartedMsg is the worker error of a terminal whose shell died with the
// server: a shell's state cannot be brought back, only its output.
const RestartedMsg = "the server restarted; restart this terminal to get a new shell"

// Runtime is a terminal worker's runtime: the socket, input, resize and
// Stop come from pty.Surface. All methods are safe for concurrent use. It
// owns one goroutine, which reports the process's exit; Stop waits for it.
type Runtime struct {
	pty.Surface
	term *pty.Term
	env  worker.Env
}

var (
	_ worker.Factory = New
	_ worker.Runtime = (*Runtime)(nil)
)

// New builds a terminal's runtime and starts its process. A restored
// terminal (env.Restored) starts none: its shell died with the server, so it
// serves the stored output and refuses input. A process that fails to start
// leaves the worker in status error, its output still attachable.
func New(ctx context.Context, env worker.Env) (worker.Runtime, error) {
	term, err := pty.NewTerm(pty.TermOptions{
		Name: "terminal", ID: env.Info.ID, Store: env.Store, Report: env.Report, Log: env.Log,
		Cols: env.Info.Cols, Rows: env.Info.Rows,
		Record: env.RecordProcess,
		Forget: func() error { return env.Store.DeleteProcess(env.Info.ID) },
	})
	if err != nil {
		return nil, err
	}
	r := &Runtime{Surface: term.Surface(), term: term, env: env}
	if env.Restored {
		live := env.Info.Status == worker.StatusStarting || env.Info.Status == worker.StatusRunning
		term.Restore(live, env.Info.ExitCode, RestartedMsg)
		return r, nil
	}
	r.start()
	return r, nil
}

// start runs the process and reports running, or error.
func (r *Runtime) start() {
	r.env.Report.Size(r.term.Size())
	err := r.term.Start(pty.Options{
		Command:  command(r.env),
		Dir:      r.env.Session.Cwd,
		Env:      childEnv(r.env.Config.ChildEnv),
		Marker:   r.env.Marker,
		Launcher: r.env.Launcher,
	})
	if err != nil {
		r.term.Logger().Warn("start terminal", "err", err)
		r.term.Fail(wire.CodeStartFailed, err.Error(), nil)
		return
	}
	r.env.Report.Running()
	r.term.Go(r.watch)
}

// watch reports a storage failure of the output when it happens, and the
// process's exit once all its output is logged and committed.
func (r *Runtime) watch() {
	p := r.term.Current()
	failed := r.term.Failed()
	for {
		select {
		case <-failed:
			r.term.StoreFailed()
			failed = nil
		case <-p.Done():
			r.term.Exit(p)
			return
		}
	}
}
