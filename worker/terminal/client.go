package terminal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/worker"
)

// maxSize bounds cols and rows from clients.
const maxSize = 1000

// Attach opens a stream from cursor, the socket's "offset" query value.
func (t *Terminal) Attach(ctx context.Context, cursor string) (*worker.Stream, error) {
	return t.log.AttachContext(ctx, cursor)
}

// clientMsg is a text frame from a client: input {data} or resize {cols, rows}.
type clientMsg struct {
	Type string  `json:"type"`
	Data *string `json:"data"`
	Cols *int    `json:"cols"`
	Rows *int    `json:"rows"`
}

// HandleClient applies one client frame. Input to a terminal whose process
// has ended fails with worker.ErrNotRunning; a malformed or unknown frame
// fails with an error wrapping worker.ErrInvalid that names the problem.
// Input may block while the process does not read its terminal.
func (t *Terminal) HandleClient(ctx context.Context, data []byte) (*worker.Stream, error) {
	m, err := parseClient(data)
	if err != nil {
		return nil, err
	}
	if m.Type == "input" {
		return nil, t.Input([]byte(*m.Data))
	}
	return nil, t.Resize(*m.Cols, *m.Rows)
}

// parseClient decodes a frame and checks it has the fields of its type.
func parseClient(data []byte) (clientMsg, error) {
	var m clientMsg
	if err := json.Unmarshal(data, &m); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return m, fmt.Errorf("%w: malformed JSON: %v", worker.ErrInvalid, err)
		}
		if te.Field == "" {
			return m, fmt.Errorf("%w: frame is not a JSON object", worker.ErrInvalid)
		}
		return m, &worker.FieldError{Field: te.Field, Msg: "wrong type: JSON " + te.Value}
	}
	switch m.Type {
	case "input":
		if m.Data == nil {
			return m, &worker.FieldError{Field: "data", Msg: "input needs a string data field"}
		}
	case "resize":
		if m.Cols == nil {
			return m, &worker.FieldError{Field: "cols", Msg: "resize needs cols and rows"}
		}
		if m.Rows == nil {
			return m, &worker.FieldError{Field: "rows", Msg: "resize needs cols and rows"}
		}
	case "":
		return m, fmt.Errorf("%w: frame has no type", worker.ErrInvalid)
	default:
		return m, fmt.Errorf("%w: unknown frame type %q (want input or resize)", worker.ErrInvalid, m.Type)
	}
	return m, nil
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
	if cols < 1 || cols > maxSize {
		return &worker.FieldError{Field: "cols", Msg: fmt.Sprintf("must be an integer from 1 to %d", maxSize)}
	}
	if rows < 1 || rows > maxSize {
		return &worker.FieldError{Field: "rows", Msg: fmt.Sprintf("must be an integer from 1 to %d", maxSize)}
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
