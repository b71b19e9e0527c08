package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/worker"
)

// settingsRoutes change an sdk worker's model and permission mode and
// remove the session's "Always allow" rules (docs/api-extensions.md,
// "Live settings, plans and rules").
func (s *Server) settingsRoutes(api *echo.Group) {
	api.PATCH("/sessions/:sid/workers/:wid", s.patchWorker)
	api.DELETE("/sessions/:sid/rules/:rid", s.deleteRule)
}

func (s *Server) patchWorker(c echo.Context) error {
	var req worker.SettingsRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	info, err := s.mgr.UpdateSettings(c.Request().Context(), c.Param("sid"), c.Param("wid"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, info)
}

func (s *Server) deleteRule(c echo.Context) error {
	sess, err := s.mgr.RemoveRule(c.Request().Context(), c.Param("sid"), c.Param("rid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}
