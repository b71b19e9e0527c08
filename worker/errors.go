package worker

import "github.com/agentdesk/agentdesk/internal/wire"

// Sentinel errors callers branch on with errors.Is. They are wire's, so
// that the machinery under internal/ returns the same values and the edge
// maps each to one code.
var (
	ErrNotFound     = wire.ErrNotFound
	ErrInvalid      = wire.ErrInvalid
	ErrConflict     = wire.ErrConflict
	ErrAgentBusy    = wire.ErrAgentBusy
	ErrUnsupported  = wire.ErrUnsupported
	ErrNotRunning   = wire.ErrNotRunning
	ErrClaudeAbsent = wire.ErrClaudeAbsent
)

// FieldError is a request field that failed validation; it matches
// ErrInvalid with errors.Is.
type FieldError = wire.FieldError

// CodeError is an error with the machine code a client should see.
type CodeError = wire.CodeError

func fieldErr(field, format string, args ...any) error {
	return wire.FieldErrorf(field, format, args...)
}
