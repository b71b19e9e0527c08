package pty

import (
	"encoding/json"
	"errors"
	"fmt"

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
