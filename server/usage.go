package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// usageDefaultDays is the range GET /api/usage covers without from;
// usageMaxDays bounds any range, so one call reads a bounded number of
// days.
const (
	usageDefaultDays = 30
	usageMaxDays     = 366
)

// usageAPI serves the usage roll-up and the rate-limit state
// (docs/api-extensions.md, "Usage and rate limits").
type usageAPI struct{ usage *worker.Usage }

func (a usageAPI) routes(api *echo.Group) {
	api.GET("/usage", a.getUsage)
	api.GET("/rate-limits", a.getRateLimits)
}

func (a usageAPI) getUsage(c echo.Context) error {
	q, err := usageQuery(c, time.Now().UTC())
	if err != nil {
		return err
	}
	rep, err := a.usage.Report(q)
	if err != nil {
		return fromDomain(err)
	}
	return c.JSON(http.StatusOK, rep)
}

// usageQuery reads and checks GET /api/usage's parameters; today is the
// default end of the range.
func usageQuery(c echo.Context, today time.Time) (worker.UsageQuery, error) {
	bad := func(msg string) error { return newError(http.StatusBadRequest, wire.CodeInvalidField, msg) }
	group, err := worker.ParseUsageGroup(c.QueryParam("groupBy"))
	if err != nil {
		return worker.UsageQuery{}, bad("groupBy: must be day, session or model")
	}
	to, err := parseDay(c.QueryParam("to"), today)
	if err != nil {
		return worker.UsageQuery{}, bad("to: must be a date like 2026-11-24")
	}
	from, err := parseDay(c.QueryParam("from"), to.AddDate(0, 0, -(usageDefaultDays-1)))
	if err != nil {
		return worker.UsageQuery{}, bad("from: must be a date like 2026-11-01")
	}
	switch {
	case from.After(to):
		return worker.UsageQuery{}, bad("from: must not be after to")
	case to.Sub(from) >= usageMaxDays*24*time.Hour:
		return worker.UsageQuery{}, bad("from: the range may span at most 366 days")
	}
	return worker.UsageQuery{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly),
		Group: group, Session: c.QueryParam("sessionId")}, nil
}

// parseDay reads a YYYY-MM-DD date (UTC); "" gives def.
func parseDay(v string, def time.Time) (time.Time, error) {
	if v == "" {
		y, m, d := def.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
	}
	return time.Parse(time.DateOnly, v)
}

// rateLimitAnswer is GET /api/rate-limits's answer; RateLimit is null
// until a CLI reported a state.
type rateLimitAnswer struct {
	RateLimit *worker.RateLimitState `json:"rateLimit"`
}

func (a usageAPI) getRateLimits(c echo.Context) error {
	st, err := a.usage.RateLimit()
	if err != nil {
		return fromDomain(err)
	}
	return c.JSON(http.StatusOK, rateLimitAnswer{RateLimit: st})
}
