package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/worker"
)

// capabilitiesAPI serves what an agent worker's CLI offers, from its own
// initialize answer (docs/api-extensions.md, "Models and commands").
type capabilitiesAPI struct{ s *Server }

func (a capabilitiesAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/models", a.models)
	api.GET("/sessions/:sid/workers/:wid/commands", a.commands)
}

func (a capabilitiesAPI) models(c echo.Context) error {
	caps, err := a.capabilities(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"models": caps.Models, "permissionMode": caps.PermissionMode})
}

func (a capabilitiesAPI) commands(c echo.Context) error {
	caps, err := a.capabilities(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"commands": caps.Commands})
}

func (a capabilitiesAPI) capabilities(c echo.Context) (worker.Capabilities, error) {
	cl, err := runtimeAs[worker.CapabilityLister](a.s, c, "models and commands")
	if err != nil {
		return worker.Capabilities{}, err
	}
	return cl.Capabilities(c.Request().Context())
}
