package agent

import "errors"

// The contract's sentinel errors. A driver's errors match them with
// errors.Is and keep its own words for a person (NewError).
var (
	// ErrNotFound is an agent program that does not exist or cannot be
	// run.
	ErrNotFound = errors.New("agent program not found")
	// ErrExited is a call on a Conn whose agent has exited.
	ErrExited = errors.New("agent exited")
	// ErrRestart is a change the running agent cannot take live (an MCP
	// server turned off or on in a Codex thread): it holds from the
	// agent's next start.
	ErrRestart = errors.New("the agent takes this change at its next start")
)

// NewError returns an error with text msg that matches kind (one of the
// sentinels above) with errors.Is: a driver's own words for one of the
// contract's errors.
func NewError(kind error, msg string) error { return &kindError{kind: kind, msg: msg} }

type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }
