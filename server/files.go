package server

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/filelist"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// maxFileResults is the most paths one answer holds (and limit's default).
const maxFileResults = 50

// maxFileQuery bounds q, in bytes: a file path is rarely longer.
const maxFileQuery = 1024

// fileRoutes serve the composer's `@` completion (docs/api-extensions.md,
// "File completion"). The listing cache lives with the routes: it is the
// only user.
func (s *Server) fileRoutes(api *echo.Group) {
	cache := filelist.NewCache(nil)
	api.GET("/sessions/:sid/files", func(c echo.Context) error { return s.sessionFiles(c, cache) })
}

// sessionFiles answers GET /api/sessions/:sid/files?q=&limit=: the files of
// the session's work tree that match q, best first.
func (s *Server) sessionFiles(c echo.Context, cache *filelist.Cache) error {
	limit, err := fileLimit(c.QueryParam("limit"))
	if err != nil {
		return err
	}
	q := c.QueryParam("q")
	if len(q) > maxFileQuery {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "q: must be at most 1024 bytes")
	}
	sess, err := s.mgr.Session(c.Param("sid"))
	if err != nil {
		return err
	}
	idx, err := cache.Index(c.Request().Context(), sess.Cwd)
	if err != nil {
		return filesError(err)
	}
	return c.JSON(http.StatusOK, map[string][]string{"files": idx.Rank(q, limit)})
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
