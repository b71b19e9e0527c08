package pty

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// MaxSize bounds the cols and rows a client may ask for.
const MaxSize = 1000

// ClientFrame is a text frame from a client of a PTY worker: input {data}
// or resize {cols, rows}. After ParseClient, the fields of its type are set.
type ClientFrame struct {
	Type string  `json:"type"`
	Data *string `json:"data"`
	Cols *int    `json:"cols"`
	Rows *int    `json:"rows"`
}

// ParseClient decodes a frame and checks it has the fields of its type. A
// malformed or unknown frame is an error wrapping wire.ErrInvalid that
// names the problem.
func ParseClient(data []byte) (ClientFrame, error) {
	var m ClientFrame
	if err := json.Unmarshal(data, &m); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return m, fmt.Errorf("%w: malformed JSON: %v", wire.ErrInvalid, err)
		}
		if te.Field == "" {
			return m, fmt.Errorf("%w: frame is not a JSON object", wire.ErrInvalid)
		}
		return m, &wire.FieldError{Field: te.Field, Msg: "wrong type: JSON " + te.Value}
	}
	switch m.Type {
	case "input":
		if m.Data == nil {
			return m, &wire.FieldError{Field: "data", Msg: "input needs a string data field"}
		}
	case "resize":
		if m.Cols == nil {
			return m, &wire.FieldError{Field: "cols", Msg: "resize needs cols and rows"}
		}
		if m.Rows == nil {
			return m, &wire.FieldError{Field: "rows", Msg: "resize needs cols and rows"}
		}
	case "":
		return m, fmt.Errorf("%w: frame has no type", wire.ErrInvalid)
	default:
		return m, fmt.Errorf("%w: unknown frame type %q (want input or resize)", wire.ErrInvalid, m.Type)
	}
	return m, nil
}

// CheckSize validates a terminal size from a client.
func CheckSize(cols, rows int) error {
	if cols < 1 || cols > MaxSize {
		return &wire.FieldError{Field: "cols", Msg: fmt.Sprintf("must be an integer from 1 to %d", MaxSize)}
	}
	if rows < 1 || rows > MaxSize {
		return &wire.FieldError{Field: "rows", Msg: fmt.Sprintf("must be an integer from 1 to %d", MaxSize)}
	}
	return nil
}

// Surface is what a PTY worker's runtime shows the server and the
// manager: the socket (Attach, HandleClient), input, resize and Stop.
// A runtime embeds it; the rest of the Term stays the kind's own.
type Surface struct{ t *Term }

// Attach opens a stream from cursor, the socket's "offset" query value.
// After history-end the replay carries the tail frames: the activity,
// then the error and exit frames when there are any.
func (s Surface) Attach(ctx context.Context, cursor string) (*hub.Stream, error) {
	return s.t.log.AttachContext(ctx, cursor)
}

// HandleClient applies one client frame: keystrokes go to the process as
// they are, a resize changes the terminal. Input to a process that is not
// running fails with wire.ErrNotRunning (or why the kind gave Fail); a
// malformed or unknown frame fails with an error wrapping wire.ErrInvalid
// that names the problem. Input may block while the process does not read
// its terminal.
func (s Surface) HandleClient(ctx context.Context, data []byte) (*hub.Stream, error) {
	m, err := ParseClient(data)
	if err != nil {
		return nil, err
	}
	if m.Type == "input" {
		return nil, s.Input([]byte(*m.Data))
	}
	return nil, s.Resize(*m.Cols, *m.Rows)
}

// Input types data into the process's terminal as it is.
func (s Surface) Input(data []byte) error {
	t := s.t
	if err := t.Usable(); err != nil {
		return fmt.Errorf("%s input: %w", t.o.Name, err)
	}
	if _, err := t.Current().Write(data); err != nil {
		return fmt.Errorf("%s input: %w", t.o.Name, err)
	}
	if t.o.OnInput != nil {
		t.o.OnInput(data)
	}
	return nil
}

// Resize sets the terminal size (each 1..MaxSize) and reports it. A
// failed resize of the PTY is logged, not returned: the size is cosmetic
// and the next resize may well succeed.
func (s Surface) Resize(cols, rows int) error {
	if err := CheckSize(cols, rows); err != nil {
		return err
	}
	t := s.t
	// Held across the PTY, OnResize and the report, so that concurrent
	// resizes end up in the same order everywhere.
	t.sizeMu.Lock()
	defer t.sizeMu.Unlock()
	if p := t.Current(); alive(p) {
		if err := p.Resize(cols, rows); err != nil {
			t.slog.Debug("resize "+t.o.Name, "err", err)
		}
	}
	if t.cols != cols || t.rows != rows {
		t.cols, t.rows = cols, rows
		if t.o.OnResize != nil {
			t.o.OnResize(cols, rows)
		}
		t.o.Report.Size(cols, rows)
	}
	return nil
}

// Stop is Term.Stop.
func (s Surface) Stop(ctx context.Context) error { return s.t.Stop(ctx) }
