package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// sessionsAPI serves the sessions of API.md, switching the agent, and
// GET /api/git (repo.go).
type sessionsAPI struct{ mgr *worker.Manager }

func (a sessionsAPI) routes(api *echo.Group) {
	api.GET("/sessions", a.list)
	api.POST("/sessions", a.create)
	api.GET("/sessions/:sid", a.get)
	api.PATCH("/sessions/:sid", a.rename)
	api.DELETE("/sessions/:sid", a.delete)
	api.POST("/sessions/:sid/switch", a.switchAgent)
	api.GET("/git", a.inspectRepo)
}

func (a sessionsAPI) list(c echo.Context) error {
	return c.JSON(http.StatusOK, a.mgr.Sessions())
}

func (a sessionsAPI) create(c echo.Context) error {
	var req worker.CreateSessionRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	sess, err := a.mgr.CreateSession(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, sess)
}

func (a sessionsAPI) get(c echo.Context) error {
	sess, err := a.mgr.Session(c.Param("sid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

type renameRequest struct {
	Title *string `json:"title"`
}

func (a sessionsAPI) rename(c echo.Context) error {
	var req renameRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Title == nil {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "title: is required")
	}
	sess, err := a.mgr.RenameSession(c.Param("sid"), *req.Title)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

func (a sessionsAPI) delete(c echo.Context) error {
	o := worker.DeleteOptions{
		RemoveWorktree: c.QueryParam("removeWorktree") == "true",
		Force:          c.QueryParam("force") == "true",
	}
	if err := a.mgr.DeleteSession(c.Request().Context(), c.Param("sid"), o); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a sessionsAPI) switchAgent(c echo.Context) error {
	var req worker.SwitchRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	w, err := a.mgr.Switch(c.Request().Context(), c.Param("sid"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]worker.Info{"worker": w})
}
