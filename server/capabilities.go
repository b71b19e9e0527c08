package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/worker"
)

// capabilityRoutes serve what an agent worker's CLI offers, from its own
// initialize answer (docs/api-extensions.md, "Models and commands").
func (s *Server) capabilityRoutes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/models", s.workerModels)
	api.GET("/sessions/:sid/workers/:wid/commands", s.workerCommands)
}

func (s *Server) workerModels(c echo.Context) error {
	caps, err := s.capabilities(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"models": caps.Models, "permissionMode": caps.PermissionMode})
}

func (s *Server) workerCommands(c echo.Context) error {
	caps, err := s.capabilities(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"commands": caps.Commands})
}

func (s *Server) capabilities(c echo.Context) (worker.Capabilities, error) {
	cl, err := runtimeAs[worker.CapabilityLister](s, c, "models and commands")
	if err != nil {
		return worker.Capabilities{}, err
	}
	return cl.Capabilities(c.Request().Context())
}
