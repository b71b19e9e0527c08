package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/worker"
)

// serverCapsAPI serves what this server can do beyond API.md
// (docs/api-extensions.md, "Capabilities"): today, which sandbox levels a
// new session may ask for.
type serverCapsAPI struct{ levels []worker.SandboxLevel }

func (a serverCapsAPI) routes(api *echo.Group) {
	api.GET("/capabilities", a.get)
}

type capabilities struct {
	Sandbox sandboxCaps `json:"sandbox"`
}

type sandboxCaps struct {
	Levels []worker.SandboxLevel `json:"levels"`
}

func (a serverCapsAPI) get(c echo.Context) error {
	levels := a.levels
	if levels == nil {
		levels = (*worker.SandboxOptions)(nil).Levels() // off only
	}
	return c.JSON(http.StatusOK, capabilities{Sandbox: sandboxCaps{Levels: levels}})
}
