package wire

import (
	"errors"
	"fmt"
)

// Sentinel errors that callers branch on with errors.Is, each answered
// with one code at the HTTP and socket edge.
var (
	ErrNotFound     = errors.New("not found")                         // not_found
	ErrInvalid      = errors.New("invalid")                           // invalid_field
	ErrConflict     = errors.New("conflict")                          // conflict
	ErrAgentBusy    = errors.New("agent busy")                        // agent_busy
	ErrUnsupported  = errors.New("not supported by this worker kind") // invalid_field
	ErrNotRunning   = errors.New("worker is not running")             // conflict
	ErrClaudeAbsent = errors.New("claude CLI not found")              // claude_not_found
)

// FieldError is a request field that failed validation. It matches
// ErrInvalid with errors.Is.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Is(target error) bool { return target == ErrInvalid }

// FieldErrorf returns a *FieldError for field with a formatted message.
func FieldErrorf(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// CodeError is an error with the machine code a client should see (for
// example invalid_base), for errors that no sentinel maps to.
type CodeError struct {
	Code Code
	Err  error
}

func (e *CodeError) Error() string { return e.Err.Error() }
func (e *CodeError) Unwrap() error { return e.Err }

// ErrStale means a write was made against a version of a file that is no
// longer the one on disk (an If-Match that no longer matches, a file
// created or deleted since): 412 conflict.
var ErrStale = errors.New("changed since it was read")
