package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/find"
)

// Limits of GET /api/search (docs/api-extensions.md, "Search").
const (
	searchMaxQuery     = 256 // characters
	searchDefaultLimit = 20
	searchMaxLimit     = 100
)

// searchAPI serves the search across all conversations; a nil find
// answers 503.
type searchAPI struct {
	mgr  *worker.Manager
	find *find.Finder
}

func (a searchAPI) routes(api *echo.Group) {
	api.GET("/search", a.search)
}

// searchAnswer: partial is only present (true) when the search ran out of
// time before ranking everything it meant to (docs/api-extensions.md).
type searchAnswer struct {
	Hits    []find.Hit `json:"hits"`
	Partial bool       `json:"partial,omitempty"`
}

func (a searchAPI) search(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if q == "" || utf8.RuneCountInString(q) > searchMaxQuery || !utf8.ValidString(q) {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "q: must be 1 to 256 characters of text")
	}
	limit := searchDefaultLimit
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > searchMaxLimit {
			return newError(http.StatusBadRequest, wire.CodeInvalidField, "limit: must be a whole number from 1 to 100")
		}
		limit = n
	}
	sid := c.QueryParam("sessionId")
	if sid != "" {
		if _, err := a.mgr.Session(sid); err != nil {
			return err
		}
	}
	if a.find == nil {
		return newError(http.StatusServiceUnavailable, wire.CodeInternal, "search is not available on this server")
	}
	res, err := a.find.Search(q, limit, sid)
	if errors.Is(err, find.ErrUnavailable) {
		return newError(http.StatusServiceUnavailable, wire.CodeInternal, "search is not available on this server")
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, searchAnswer{Hits: res.Hits, Partial: res.Partial})
}
