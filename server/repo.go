package server

import (
	"net/http"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/labstack/echo/v4"
)

// inspectRepo answers GET /api/git?path=<dir>[&status=true]: whether dir
// is in a git work tree, its root and branch, and with status=true whether
// it has uncommitted changes (docs/api-extensions.md).
func (a sessionsAPI) inspectRepo(c echo.Context) error {
	info, err := worker.InspectRepo(c.Request().Context(), c.QueryParam("path"), c.QueryParam("status") == "true")
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, info)
}
