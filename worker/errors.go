package worker

import "fmt"

// FieldError is a request field that failed validation. It matches
// ErrInvalid with errors.Is.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Is(target error) bool { return target == ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// CodeError is an error with the machine code a client should see (for
// example invalid_base), for errors that no sentinel maps to.
type CodeError struct {
	Code string
	Err  error
}

func (e *CodeError) Error() string { return e.Err.Error() }
func (e *CodeError) Unwrap() error { return e.Err }
