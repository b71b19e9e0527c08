package server

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// attentionRoutes serves the "needs you" inbox (docs/api-extensions.md,
// "Inbox").
func (s *Server) attentionRoutes(api *echo.Group) {
	api.GET("/attention", s.listAttention)
	api.POST("/sessions/:sid/seen", s.sessionSeen)
	api.POST("/sessions/:sid/workers/:wid/permissions/:rid", s.answerPermission)
}

func (s *Server) listAttention(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"items": s.att.list()})
}

// sessionSeen clears the session's "finished" entries: a tab shows it.
func (s *Server) sessionSeen(c echo.Context) error {
	sid := c.Param("sid")
	if _, err := s.mgr.Session(sid); err != nil {
		return fromDomain(err)
	}
	if err := s.att.seen(sid); err != nil {
		return fromDomain(err)
	}
	return c.NoContent(http.StatusNoContent)
}

// permissionAnswer is the body of POST …/permissions/:rid, the REST twin
// of the sdk socket's permission-response frame, updatedPermissions
// included (a plan approved in a mode, "Always allow").
type permissionAnswer struct {
	Behavior           string          `json:"behavior"`
	Message            string          `json:"message"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
}

type permissionResponder interface {
	pendingLister
	AnswerPermission(requestID, behavior, message string, updatedInput, updatedPermissions json.RawMessage) error
}

func (s *Server) answerPermission(c echo.Context) error {
	var req permissionAnswer
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Behavior != "allow" && req.Behavior != "deny" {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "behavior: must be \"allow\" or \"deny\"")
	}
	pr, err := runtimeAs[permissionResponder](s, c, "permission answers")
	if err != nil {
		return err
	}
	rid := c.Param("rid")
	if !hasRequest(pr.PendingRequests(), rid) {
		return newError(http.StatusNotFound, wire.CodeNotFound, "no permission request "+rid+" is waiting; it was answered or its turn ended")
	}
	if err := pr.AnswerPermission(rid, req.Behavior, req.Message, req.UpdatedInput, req.UpdatedPermissions); err != nil {
		return fromDomain(err)
	}
	s.att.refresh()
	return c.NoContent(http.StatusNoContent)
}

func hasRequest(frames []json.RawMessage, rid string) bool {
	for _, f := range frames {
		if requestID(f) == rid {
			return true
		}
	}
	return false
}
