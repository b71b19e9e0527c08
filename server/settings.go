package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/worker"
)

// settingsAPI changes an sdk worker's model and permission mode and
// remove the session's "Always allow" rules (docs/api-extensions.md,
// "Live settings, plans and rules").
type settingsAPI struct{ settings *worker.AgentSettings }

func (a settingsAPI) routes(api *echo.Group) {
	api.PATCH("/sessions/:sid/workers/:wid", a.patchWorker)
	api.DELETE("/sessions/:sid/rules/:rid", a.deleteRule)
}

func (a settingsAPI) patchWorker(c echo.Context) error {
	var req worker.SettingsRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	info, err := a.settings.Update(c.Request().Context(), c.Param("sid"), c.Param("wid"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, info)
}

func (a settingsAPI) deleteRule(c echo.Context) error {
	sess, err := a.settings.RemoveRule(c.Request().Context(), c.Param("sid"), c.Param("rid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}
