package server

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// maxFileResults is the most paths one answer holds (and limit's default).
const maxFileResults = 50

// maxFileQuery bounds q, in bytes: a file path is rarely longer.
const maxFileQuery = 1024

// filesAPI serves the composer's `@` completion (docs/api-extensions.md,
// "File completion").
type filesAPI struct{ files *worker.FileList }

func (a filesAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/files", a.match)
}

// match answers GET /api/sessions/:sid/files?q=&limit=: the files of the
// session's work tree that match q, best first.
func (a filesAPI) match(c echo.Context) error {
	limit, err := fileLimit(c.QueryParam("limit"))
	if err != nil {
		return err
	}
	q := c.QueryParam("q")
	if len(q) > maxFileQuery {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "q: must be at most 1024 bytes")
	}
	files, err := a.files.Match(c.Request().Context(), c.Param("sid"), q, limit)
	if errors.Is(err, worker.ErrNotFound) {
		return err
	}
	if err != nil {
		return filesError(err)
	}
	return c.JSON(http.StatusOK, map[string][]string{"files": files})
}

// fileLimit reads limit: absent means 50; otherwise 1 to 50.
func fileLimit(v string) (int, error) {
	if v == "" {
		return maxFileResults, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxFileResults {
		return 0, newError(http.StatusBadRequest, wire.CodeInvalidField, "limit: must be a whole number from 1 to 50")
	}
	return n, nil
}

// filesError answers a listing that failed: too slow (504 timeout), the
// directory is gone (409 conflict), or else 500.
func filesError(err error) error {
	var e *apiError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		e = newError(http.StatusGatewayTimeout, wire.CodeTimeout, "listing the session's files took too long; try again")
	case errors.Is(err, fs.ErrNotExist):
		e = newError(http.StatusConflict, wire.CodeConflict, "the session's directory no longer exists")
	default:
		e = newError(http.StatusInternalServerError, wire.CodeInternal, "the session's files could not be listed; see the server log")
	}
	e.Internal = err
	return e
}
