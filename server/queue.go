package server

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// The chat's durable queue (docs/api-extensions.md, "Queue"), on the sdk
// worker that shows the chat.
func (s *Server) queueRoutes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/queue", s.listQueue)
	api.POST("/sessions/:sid/workers/:wid/queue", s.addQueued)
	api.PATCH("/sessions/:sid/workers/:wid/queue/:id", s.editQueued)
	api.DELETE("/sessions/:sid/workers/:wid/queue/:id", s.removeQueued)
}

// queuer finds the worker's queue. A pty-agent worker answers 409: the
// conversation has a queue, but the terminal view does not deliver it.
// Other kinds have none (404).
func (s *Server) queuer(c echo.Context) (worker.Queuer, error) {
	info, rt, err := s.builtRuntime(c)
	if err != nil {
		return nil, err
	}
	if q, ok := rt.(worker.Queuer); ok {
		return q, nil
	}
	if info.Kind == worker.KindPTYAgent {
		return nil, newError(http.StatusConflict, wire.CodeConflict, "the queue belongs to the chat: switch back to the chat view to use it")
	}
	return nil, newError(http.StatusNotFound, wire.CodeNotFound, string(info.Kind)+" workers have no queue")
}

func (s *Server) listQueue(c echo.Context) error {
	q, err := s.queuer(c)
	if err != nil {
		return err
	}
	items, err := q.Queue()
	if err != nil {
		return err
	}
	if items == nil {
		items = []wire.QueueItem{}
	}
	return c.JSON(http.StatusOK, map[string][]wire.QueueItem{"items": items})
}

type queueAddRequest struct {
	Content     *string        `json:"content"`
	NotBefore   *string        `json:"notBefore"`
	Attachments []attach.Input `json:"attachments"`
}

func (s *Server) addQueued(c echo.Context) error {
	var req queueAddRequest
	// It takes attachments, as POST …/input does: the same body limit.
	done, err := s.bindInput(c, &req, &req.Attachments)
	defer done()
	if err != nil {
		return err
	}
	if req.Content == nil {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "content: is required")
	}
	var nb *time.Time
	if req.NotBefore != nil {
		t, err := time.Parse(time.RFC3339, *req.NotBefore)
		if err != nil {
			return newError(http.StatusBadRequest, wire.CodeInvalidField, "notBefore: must be an RFC 3339 time such as 2026-01-02T15:04:05Z")
		}
		nb = &t
	}
	q, err := s.queuer(c)
	if err != nil {
		return err
	}
	it, err := enqueue(c.Request().Context(), q, *req.Content, nb, req.Attachments)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, it)
}

type queueEditRequest struct {
	Content  *string `json:"content"`
	Position *int    `json:"position"`
}

func (s *Server) editQueued(c echo.Context) error {
	var req queueEditRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	q, err := s.queuer(c)
	if err != nil {
		return err
	}
	it, err := q.EditQueued(c.Request().Context(), c.Param("id"), req.Content, req.Position)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, it)
}

func (s *Server) removeQueued(c echo.Context) error {
	q, err := s.queuer(c)
	if err != nil {
		return err
	}
	if err := q.RemoveQueued(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// enqueue adds an item, with its attachments checked first (a bad one
// stores nothing).
func enqueue(ctx context.Context, q worker.Queuer, content string, nb *time.Time, in []attach.Input) (wire.QueueItem, error) {
	if len(in) == 0 {
		return q.Enqueue(ctx, content, nb)
	}
	files, err := attach.Decode(in)
	if err != nil {
		return wire.QueueItem{}, err
	}
	fq, ok := q.(worker.FileQueuer)
	if !ok {
		return wire.QueueItem{}, wire.FieldErrorf("attachments", "this worker's queue takes text only")
	}
	return fq.EnqueueFiles(ctx, content, nb, files)
}

// submit is POST …/input's delivery: through the queue's rules ("when")
// for a worker that has one; a worker without a queue takes "now" only.
func submit(ctx context.Context, in worker.Inputter, content, when string) error {
	if q, ok := in.(worker.Queuer); ok {
		return q.Submit(ctx, content, when)
	}
	if when != "" && when != wire.WhenNow {
		return wire.FieldErrorf("when", "this worker has no queue: only %q is possible", wire.WhenNow)
	}
	return in.SendUser(ctx, content)
}
