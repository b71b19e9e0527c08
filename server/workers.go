package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// workersAPI serves the workers of API.md: create, get, delete, restart,
// input, cancel (cancel.go), message history and diffs.
type workersAPI struct{ s *Server }

func (a workersAPI) routes(api *echo.Group) {
	api.POST("/sessions/:sid/workers", a.create)
	api.GET("/sessions/:sid/workers/:wid", a.get)
	api.DELETE("/sessions/:sid/workers/:wid", a.delete)
	api.POST("/sessions/:sid/workers/:wid/restart", a.restart)
	api.POST("/sessions/:sid/workers/:wid/input", a.input)
	api.POST("/sessions/:sid/workers/:wid/cancel", a.cancel)
	api.GET("/sessions/:sid/workers/:wid/messages", a.messages)
	api.GET("/sessions/:sid/workers/:wid/diff", a.diff)
}

func (a workersAPI) create(c echo.Context) error {
	var req worker.WorkerRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	info, err := a.s.mgr.CreateWorker(c.Request().Context(), c.Param("sid"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, info)
}

func (a workersAPI) get(c echo.Context) error {
	info, err := a.s.mgr.Worker(c.Param("sid"), c.Param("wid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, info)
}

func (a workersAPI) delete(c echo.Context) error {
	if err := a.s.mgr.DeleteWorker(c.Request().Context(), c.Param("sid"), c.Param("wid")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a workersAPI) restart(c echo.Context) error {
	info, err := a.s.mgr.RestartWorker(c.Request().Context(), c.Param("sid"), c.Param("wid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, info)
}

// buildWait bounds how long a request waits for a worker that is still
// starting.
const buildWait = 10 * time.Second

// builtRuntime finds the worker's runtime, waiting a little for one that
// is still being built.
func (s *Server) builtRuntime(c echo.Context) (worker.Info, worker.Runtime, error) {
	ctx, cancel := context.WithTimeout(c.Request().Context(), buildWait)
	defer cancel()
	info, rt, err := s.mgr.WaitRuntime(ctx, c.Param("sid"), c.Param("wid"))
	if err != nil {
		return info, nil, err
	}
	if rt == nil {
		return info, nil, newError(http.StatusConflict, wire.CodeConflict, "the worker is still starting; try again")
	}
	return info, rt, nil
}

// runtimeAs finds the worker's runtime and checks that it can do what the
// endpoint needs.
func runtimeAs[T any](s *Server, c echo.Context, what string) (T, error) {
	var zero T
	info, rt, err := s.builtRuntime(c)
	if err != nil {
		return zero, err
	}
	t, ok := rt.(T)
	if !ok {
		return zero, newError(http.StatusBadRequest, wire.CodeInvalidField, string(info.Kind)+" workers do not support "+what)
	}
	return t, nil
}

type inputRequest struct {
	Content     *string                  `json:"content"`
	Attachments []worker.AttachmentInput `json:"attachments"`
	When        string                   `json:"when"` // worker.Submit
}

func (a workersAPI) input(c echo.Context) error {
	var req inputRequest
	done, err := a.s.bindInput(c, &req, &req.Attachments)
	defer done()
	if err != nil {
		return err
	}
	if req.Content == nil {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, "content: is required")
	}
	if len(req.Attachments) > 0 {
		return a.s.inputFiles(c, *req.Content, req.When, req.Attachments)
	}
	in, err := runtimeAs[worker.Inputter](a.s, c, "input")
	if err != nil {
		return err
	}
	if err := worker.Submit(c.Request().Context(), in, *req.Content, req.When); err != nil {
		return err
	}
	return c.NoContent(http.StatusAccepted)
}

func (a workersAPI) cancel(c echo.Context) error {
	force, err := cancelForce(c)
	if err != nil {
		return err
	}
	cancelled, err := a.cancelTurn(c, force)
	if err != nil {
		return err
	}
	if !cancelled {
		return c.JSON(http.StatusOK, map[string]bool{"cancelled": false})
	}
	return c.JSON(http.StatusAccepted, map[string]bool{"cancelled": true})
}

func (a workersAPI) messages(c echo.Context) error {
	limit := wire.PageDefault
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > wire.PageMax {
			return newError(http.StatusBadRequest, wire.CodeInvalidField, fmt.Sprintf("limit: must be a number from 1 to %d", wire.PageMax))
		}
		limit = n
	}
	if c.Request().URL.Query().Has("before") {
		ol, err := runtimeAs[worker.OlderMessageLister](a.s, c, "message history")
		if err != nil {
			return err
		}
		msgs, more, err := ol.MessagesBefore(c.QueryParam("before"), c.QueryParam("after"), limit)
		if err != nil {
			return err
		}
		return writeMessages(c, msgs, more)
	}
	ml, err := runtimeAs[worker.MessageLister](a.s, c, "message history")
	if err != nil {
		return err
	}
	msgs, more, err := ml.Messages(c.QueryParam("after"), limit)
	if err != nil {
		return err
	}
	return writeMessages(c, msgs, more)
}

// writeMessages writes {"messages":[…],"hasMore":…} with msgs, valid JSON
// objects built by the worker, as they are: c.JSON would validate and copy
// every one of them into a buffer grown to the size of the answer.
func writeMessages(c echo.Context, msgs []json.RawMessage, more bool) error {
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	w.WriteHeader(http.StatusOK)
	sep := []byte(`{"messages":[`)
	for _, m := range msgs {
		if _, err := w.Write(sep); err != nil {
			return nil // the client went away: nothing more to answer
		}
		if _, err := w.Write(m); err != nil {
			return nil
		}
		sep = []byte{','}
	}
	if len(msgs) == 0 {
		_, _ = w.Write(sep)
	}
	_, _ = w.Write([]byte(`],"hasMore":` + strconv.FormatBool(more) + "}\n"))
	return nil
}

func (a workersAPI) diff(c echo.Context) error {
	d, err := runtimeAs[worker.Differ](a.s, c, "diffs")
	if err != nil {
		return err
	}
	diff, err := d.Diff(c.Request().Context(), c.QueryParam("path"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, diff)
}
