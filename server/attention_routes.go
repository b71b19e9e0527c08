package server

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker/attention"
)

// attentionAPI serves the "needs you" inbox (docs/api-extensions.md,
// "Inbox").
type attentionAPI struct {
	s   *Server
	att *attention.List
}

func (a attentionAPI) routes(api *echo.Group) {
	api.GET("/attention", a.list)
	api.POST("/sessions/:sid/seen", a.seen)
	api.POST("/sessions/:sid/workers/:wid/permissions/:rid", a.answerPermission)
}

func (a attentionAPI) list(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"items": a.att.Items()})
}

// seen clears the session's "finished" entries: a tab shows it.
func (a attentionAPI) seen(c echo.Context) error {
	sid := c.Param("sid")
	if _, err := a.s.mgr.Session(sid); err != nil {
		return fromDomain(err)
	}
	if err := a.att.Seen(sid); err != nil {
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
	PendingRequests() []json.RawMessage
	AnswerPermission(requestID, behavior, message string, updatedInput, updatedPermissions json.RawMessage) error
}

func (a attentionAPI) answerPermission(c echo.Context) error {
	var req permissionAnswer
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Behavior != "allow" && req.Behavior != "deny" {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "behavior: must be \"allow\" or \"deny\"")
	}
	pr, err := runtimeAs[permissionResponder](a.s, c, "permission answers")
	if err != nil {
		return err
	}
	rid := c.Param("rid")
	if !attention.HasRequest(pr.PendingRequests(), rid) {
		return newError(http.StatusNotFound, wire.CodeNotFound, "no permission request "+rid+" is waiting; it was answered or its turn ended")
	}
	if err := pr.AnswerPermission(rid, req.Behavior, req.Message, req.UpdatedInput, req.UpdatedPermissions); err != nil {
		return fromDomain(err)
	}
	a.att.Refresh()
	return c.NoContent(http.StatusNoContent)
}
