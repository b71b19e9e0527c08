package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"strings"
	"syscall"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// apiError is an error answer: a message a person can act on and a machine
// code. Internal holds the detail for the log only.
type apiError struct {
	Status   int       `json:"-"`
	Message  string    `json:"error"`
	Code     wire.Code `json:"code"`
	Internal error     `json:"-"`
}

func (e *apiError) Error() string { return e.Message }

func newError(status int, code wire.Code, msg string) *apiError {
	return &apiError{Status: status, Code: code, Message: msg}
}

// fromDomain maps a worker error to its HTTP answer. Messages of the domain
// errors are safe to show: they name only what the caller sent.
func fromDomain(err error) *apiError {
	var fe *worker.FieldError
	var ce *worker.CodeError
	switch {
	case errors.As(err, &ce):
		return newError(codeStatus(ce.Code), ce.Code, ce.Error())
	case errors.As(err, &fe):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, fieldSentence(fe))
	case errors.Is(err, worker.ErrNotFound):
		return newError(http.StatusNotFound, wire.CodeNotFound, err.Error())
	case errors.Is(err, wire.ErrStale):
		return newError(http.StatusPreconditionFailed, wire.CodeConflict, err.Error())
	case errors.Is(err, worker.ErrAgentBusy):
		return newError(http.StatusConflict, wire.CodeAgentBusy, err.Error())
	case errors.Is(err, worker.ErrConflict), errors.Is(err, worker.ErrNotRunning):
		return newError(http.StatusConflict, wire.CodeConflict, err.Error())
	case errors.Is(err, worker.ErrClaudeAbsent):
		// The exec error behind it names Go's $PATH lookup: log it only.
		e := newError(http.StatusServiceUnavailable, wire.CodeClaudeNotFound, "The Claude CLI was not found: install it (npm install -g @anthropic-ai/claude-code) or start agentdesk with --claude /path/to/claude")
		e.Internal = err
		return e
	case errors.Is(err, worker.ErrInvalid), errors.Is(err, worker.ErrUnsupported):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, err.Error())
	}
	if e := storageError(err); e != nil {
		e.Internal = err
		return e
	}
	e := newError(http.StatusInternalServerError, wire.CodeInternal, "internal error; see the server log")
	e.Internal = err
	return e
}

// storageError answers a write the disk refused: full (507) or read-only
// (503). The text is matched too because bbolt formats a failed file resize
// with %s, dropping the errno from the chain.
func storageError(err error) *apiError {
	is := func(errno syscall.Errno) bool {
		return errors.Is(err, errno) || strings.Contains(err.Error(), errno.Error())
	}
	switch {
	case is(syscall.ENOSPC), is(syscall.EFBIG), is(syscall.EDQUOT):
		return newError(http.StatusInsufficientStorage, wire.CodeStorageFull, "the disk is full: the data could not be saved; free some space and try again")
	case is(syscall.EROFS):
		return newError(http.StatusServiceUnavailable, wire.CodeStorageUnavailable, "the data directory is read-only: the data could not be saved")
	}
	return nil
}

// errorHandler writes every error as {"error","code"} and logs internals.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var ae *apiError
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &he):
		ae = fromEcho(he)
	default:
		ae = fromDomain(err)
	}
	if ae.Internal != nil || ae.Status >= 500 {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(ae.Status)
		return
	}
	out := *ae
	out.Message = sentence(ae.Message)
	_ = c.JSON(ae.Status, &out)
}

// codeStatus is the HTTP status of a worker's own error code: a child that
// failed is the server's upstream failing (502); the rest are bad input.
func codeStatus(code wire.Code) int {
	if code.Upstream() {
		return http.StatusBadGateway
	}
	switch code {
	case wire.CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case wire.CodeForbidden:
		return http.StatusForbidden
	}
	if code == wire.CodeSandboxUnavailable {
		return http.StatusConflict // the request is fine; this server lacks a package
	}
	return http.StatusBadRequest
}

func fromEcho(he *echo.HTTPError) *apiError {
	switch he.Code {
	case http.StatusNotFound:
		return newError(he.Code, wire.CodeNotFound, "no such endpoint")
	case http.StatusMethodNotAllowed:
		return newError(he.Code, wire.CodeNotFound, "method not allowed on this endpoint")
	case http.StatusRequestEntityTooLarge:
		return newError(he.Code, wire.CodeTooLarge, "request body is larger than 1 MiB")
	case http.StatusUnauthorized:
		return newError(he.Code, wire.CodeUnauthorized, "authentication required: open the URL printed at start-up or send the token")
	}
	e := newError(he.Code, wire.CodeInternal, http.StatusText(he.Code))
	e.Internal = he
	return e
}

// bind decodes a JSON body into v, strictly: unknown fields, keys that
// match a field only case-insensitively, trailing data and bodies over
// wire.MaxBody are refused with a clear error.
func bind(c echo.Context, v any) error {
	return bindMax(c, v, wire.MaxBody)
}

// bindMax is bind with a body limit of max bytes (POST …/input takes
// attachments: wire.MaxInputBody).
func bindMax(c echo.Context, v any, max int64) error {
	data, err := readBody(c, max)
	if err != nil {
		return err
	}
	return decodeBody(data, v)
}

// readBody reads a request's body of at most max bytes, into one buffer
// of its announced length.
func readBody(c echo.Context, max int64) ([]byte, error) {
	r := c.Request()
	if r.ContentLength > max {
		return nil, tooLargeBody(max)
	}
	body := http.MaxBytesReader(c.Response(), r.Body, max)
	if r.ContentLength <= 0 { // unknown: as it comes
		data, err := io.ReadAll(body)
		if err != nil {
			return nil, decodeError(err)
		}
		return data, nil
	}
	data := make([]byte, r.ContentLength) // net/http reads no further
	if _, err := io.ReadFull(body, data); err != nil {
		return nil, decodeError(err)
	}
	return data, nil
}

// decodeBody decodes data into v, strictly (see bind).
func decodeBody(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return decodeError(err)
		}
		return newError(http.StatusBadRequest, wire.CodeInvalidJSON, "request body must be a single JSON object")
	}
	if err := checkKeys(data, reflect.TypeOf(v)); err != nil {
		var ke *keyError
		if errors.As(err, &ke) {
			return newError(http.StatusBadRequest, wire.CodeInvalidField, ke.Error())
		}
		return decodeError(err)
	}
	return nil
}

func decodeError(err error) error {
	var mbe *http.MaxBytesError
	var ute *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &mbe):
		return tooLargeBody(mbe.Limit)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return newError(http.StatusRequestTimeout, wire.CodeTimeout, "request body took too long to arrive")
	case errors.As(err, &ute):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, typeError(ute))
	case errors.Is(err, io.EOF):
		return newError(http.StatusBadRequest, wire.CodeInvalidJSON, "request body is empty; send a JSON object")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "Unknown field "+strings.TrimPrefix(err.Error(), "json: unknown field ")+" (check its spelling)")
	case errors.As(err, &se):
		return newError(http.StatusBadRequest, wire.CodeInvalidJSON, fmt.Sprintf("The request body is not valid JSON (error at byte %d)", se.Offset))
	}
	return newError(http.StatusBadRequest, wire.CodeInvalidJSON, "The request body is not valid JSON")
}

// tooLargeBody is the answer to a body over max bytes.
func tooLargeBody(max int64) *apiError {
	return newError(http.StatusRequestEntityTooLarge, wire.CodeTooLarge, fmt.Sprintf("request body is larger than %d MiB", max>>20))
}
