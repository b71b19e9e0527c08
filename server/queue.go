package server

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// queueAPI is the chat's durable queue (docs/api-extensions.md, "Queue"),
// on the sdk worker that shows the chat.
type queueAPI struct{ s *Server }

func (a queueAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/workers/:wid/queue", a.list)
	api.POST("/sessions/:sid/workers/:wid/queue", a.add)
	api.PATCH("/sessions/:sid/workers/:wid/queue/:id", a.edit)
	api.DELETE("/sessions/:sid/workers/:wid/queue/:id", a.remove)
}

// queuer finds the worker's queue. A pty-agent worker answers 409: the
// conversation has a queue, but the terminal view does not deliver it.
// Other kinds have none (404).
func (a queueAPI) queuer(c echo.Context) (worker.Queuer, error) {
	info, rt, err := a.s.builtRuntime(c)
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

func (a queueAPI) list(c echo.Context) error {
	q, err := a.queuer(c)
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
	Content     *string                  `json:"content"`
	NotBefore   *string                  `json:"notBefore"`
	Attachments []worker.AttachmentInput `json:"attachments"`
}

func (a queueAPI) add(c echo.Context) error {
	var req queueAddRequest
	// It takes attachments, as POST …/input does: the same body limit.
	done, err := a.s.bindInput(c, &req, &req.Attachments)
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
	q, err := a.queuer(c)
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

func (a queueAPI) edit(c echo.Context) error {
	var req queueEditRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	q, err := a.queuer(c)
	if err != nil {
		return err
	}
	it, err := q.EditQueued(c.Request().Context(), c.Param("id"), req.Content, req.Position)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, it)
}

func (a queueAPI) remove(c echo.Context) error {
	q, err := a.queuer(c)
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
func enqueue(ctx context.Context, q worker.Queuer, content string, nb *time.Time, in []worker.AttachmentInput) (wire.QueueItem, error) {
	if len(in) == 0 {
		return q.Enqueue(ctx, content, nb)
	}
	files, err := worker.DecodeAttachments(in)
	if err != nil {
		return wire.QueueItem{}, err
	}
	fq, ok := q.(worker.FileQueuer)
	if !ok {
		return wire.QueueItem{}, wire.FieldErrorf("attachments", "this worker's queue takes text only")
	}
	return fq.EnqueueFiles(ctx, content, nb, files)
}
