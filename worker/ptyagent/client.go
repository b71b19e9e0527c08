package ptyagent

import (
	"bytes"
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// Attach opens a stream from cursor, the socket's "offset" query value.
// After history-end the replay carries the current activity, then the
// error and exit frames when there are any.
func (r *Runtime) Attach(ctx context.Context, cursor string) (*hub.Stream, error) {
	return r.log.AttachContext(ctx, cursor)
}

// HandleClient applies one client frame: keystrokes go to the CLI as they
// are, a resize changes the terminal. Input to a CLI that is not running
// fails with worker.ErrNotRunning; a malformed or unknown frame fails with
// an error wrapping worker.ErrInvalid that names the problem. Input may
// block while the CLI does not read its terminal.
func (r *Runtime) HandleClient(ctx context.Context, data []byte) (*hub.Stream, error) {
	m, err := pty.ParseClient(data)
	if err != nil {
		return nil, err
	}
	if m.Type == "input" {
		return nil, r.Input([]byte(*m.Data))
	}
	return nil, r.Resize(*m.Cols, *m.Rows)
}

// Input types data into the CLI's terminal as it is.
func (r *Runtime) Input(data []byte) error {
	if err := r.usable(); err != nil {
		return fmt.Errorf("pty-agent input: %w", err)
	}
	if _, err := r.current().Write(data); err != nil {
		return fmt.Errorf("pty-agent input: %w", err)
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		r.entered.Store(true) // maybe a prompt: see setActivity
	}
	return nil
}

// Resize sets the terminal size (each 1..1000) and records it on the
// worker. A failed resize of the PTY is logged, not returned: the size is
// cosmetic and the next resize may well succeed.
func (r *Runtime) Resize(cols, rows int) error {
	if err := pty.CheckSize(cols, rows); err != nil {
		return err
	}
	// Held across the PTY, the screen model and update so that concurrent
	// resizes end up in the same order everywhere.
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running() {
		if err := r.current().Resize(cols, rows); err != nil {
			r.slog.Debug("resize pty-agent", "err", err)
		}
	}
	if r.cols != cols || r.rows != rows {
		r.cols, r.rows = cols, rows
		r.det.resize(cols, rows)
		r.update(func(i *worker.Info) { i.Cols, i.Rows = cols, rows })
	}
	return nil
}

// usable says why input cannot reach the CLI, or nil.
func (r *Runtime) usable() error {
	switch {
	case r.absent:
		return worker.ErrClaudeAbsent
	case !r.running():
		return worker.ErrNotRunning
	}
	return nil
}

func (r *Runtime) running() bool {
	p := r.current()
	if p == nil {
		return false
	}
	select {
	case <-p.Done():
		return false
	default:
		return true
	}
}
