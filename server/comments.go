package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker/review"
)

// reviewAPI serves the review comments of a session's diff
// (docs/api-extensions.md, "Review comments"), and sending them to the
// session's agent as one message.
type reviewAPI struct{ review *review.Service }

func (a reviewAPI) routes(api *echo.Group) {
	api.GET("/sessions/:sid/comments", a.list)
	api.POST("/sessions/:sid/comments", a.add)
	api.POST("/sessions/:sid/comments/send", a.send)
	api.PATCH("/sessions/:sid/comments/:id", a.edit)
	api.DELETE("/sessions/:sid/comments/:id", a.delete)
}

func (a reviewAPI) list(c echo.Context) error {
	cs, err := a.review.List(c.Request().Context(), c.Param("sid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string][]review.Comment{"comments": cs})
}

func (a reviewAPI) add(c echo.Context) error {
	var req review.Request
	if err := bind(c, &req); err != nil {
		return err
	}
	nc, err := a.review.Add(c.Request().Context(), c.Param("sid"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, nc)
}

func (a reviewAPI) edit(c echo.Context) error {
	var req review.Request
	if err := bind(c, &req); err != nil {
		return err
	}
	next, err := a.review.Edit(c.Request().Context(), c.Param("sid"), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, next)
}

func (a reviewAPI) delete(c echo.Context) error {
	if err := a.review.Delete(c.Param("sid"), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// send answers POST …/comments/send: every comment, the sent ones now
// "sent", and the worker the review went to. The body is optional and
// empty.
func (a reviewAPI) send(c echo.Context) error {
	if c.Request().ContentLength > 0 {
		var req struct{}
		if err := bind(c, &req); err != nil {
			return err
		}
	}
	sent, err := a.review.Send(c.Request().Context(), c.Param("sid"))
	if errors.Is(err, review.ErrTooLong) {
		return newError(http.StatusBadRequest, wire.CodeTooLarge, err.Error())
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sent)
}
