package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/worker/adopt"
)

// adoptAPI lists the conversations the CLI already holds, for adoption
// (docs/api-extensions.md, "Adopt existing sessions"); POST /api/sessions
// with claudeSessionId adopts one.
type adoptAPI struct{ adopt *adopt.Service }

func (a adoptAPI) routes(api *echo.Group) {
	api.GET("/claude/projects", a.projects)
	api.GET("/claude/sessions", a.sessions)
}

func (a adoptAPI) projects(c echo.Context) error {
	ps, err := a.adopt.Projects()
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"projects": ps})
}

func (a adoptAPI) sessions(c echo.Context) error {
	cs, err := a.adopt.Conversations(c.QueryParam("cwd"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"sessions": cs})
}
