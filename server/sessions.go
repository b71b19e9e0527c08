package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

func (s *Server) listSessions(c echo.Context) error {
	return c.JSON(http.StatusOK, s.mgr.Sessions())
}

func (s *Server) createSession(c echo.Context) error {
	var req worker.CreateSessionRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	sess, err := s.mgr.CreateSession(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, sess)
}

func (s *Server) getSession(c echo.Context) error {
	sess, err := s.mgr.Session(c.Param("sid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

type renameRequest struct {
	Title *string `json:"title"`
}

func (s *Server) renameSession(c echo.Context) error {
	var req renameRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Title == nil {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "title: is required")
	}
	sess, err := s.mgr.RenameSession(c.Param("sid"), *req.Title)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

func (s *Server) deleteSession(c echo.Context) error {
	o := worker.DeleteOptions{
		RemoveWorktree: c.QueryParam("removeWorktree") == "true",
		Force:          c.QueryParam("force") == "true",
	}
	if err := s.mgr.DeleteSession(c.Request().Context(), c.Param("sid"), o); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) switchAgent(c echo.Context) error {
	var req worker.SwitchRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	w, err := s.mgr.Switch(c.Request().Context(), c.Param("sid"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]worker.Info{"worker": w})
}
