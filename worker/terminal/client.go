package terminal

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// Attach opens a stream from cursor, the socket's "offset" query value.
func (t *Terminal) Attach(ctx context.Context, cursor string) (*hub.Stream, error) {
	return t.log.AttachContext(ctx, cursor)
}

// HandleClient applies one client frame. Input to a terminal whose process
// has ended fails with worker.ErrNotRunning; a malformed or unknown frame
// fails with an error wrapping worker.ErrInvalid that names the problem.
// Input may block while the process does not read its terminal.
func (t *Terminal) HandleClient(ctx context.Context, data []byte) (*hub.Stream, error) {
	m, err := pty.ParseClient(data)
	if err != nil {
		return nil, err
	}
	if m.Type == "input" {
		return nil, t.Input([]byte(*m.Data))
	}
	return nil, t.Resize(*m.Cols, *m.Rows)
}

// Input types data into the terminal.
func (t *Terminal) Input(data []byte) error {
	if !t.running() {
		return fmt.Errorf("terminal input: %w", worker.ErrNotRunning)
	}
	if _, err := t.proc.Write(data); err != nil {
		return fmt.Errorf("terminal input: %w", err)
	}
	return nil
}

// Resize sets the terminal size (each 1..1000) and records it on the
// worker. A failed resize of the PTY is logged, not returned: the size is
// cosmetic and the next resize may well succeed.
func (t *Terminal) Resize(cols, rows int) error {
	if err := pty.CheckSize(cols, rows); err != nil {
		return err
	}
	if t.running() {
		if err := t.proc.Resize(cols, rows); err != nil {
			t.slog.Debug("resize terminal", "err", err)
		}
	}
	// Held across update so that concurrent resizes are recorded in order.
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cols != cols || t.rows != rows {
		t.cols, t.rows = cols, rows
		t.update(func(i *worker.Info) { i.Cols, i.Rows = cols, rows })
	}
	return nil
}

func (t *Terminal) running() bool {
	if t.proc == nil {
		return false
	}
	select {
	case <-t.proc.Done():
		return false
	default:
		return true
	}
}
