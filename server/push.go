package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker/notify"
)

// pushAPI is Web Push's subscriptions (docs/api-extensions.md, "Web
// Push"); a nil push is off.
type pushAPI struct{ push *notify.Service }

func (a pushAPI) routes(api *echo.Group) {
	api.GET("/push/key", a.key)
	api.POST("/push/subscriptions", a.add)
	api.DELETE("/push/subscriptions", a.remove)
}

func (a pushAPI) on() error {
	if a.push == nil {
		return newError(http.StatusNotFound, wire.CodeNotFound, "push notifications are off: the server runs without a data dir")
	}
	return nil
}

func (a pushAPI) key(c echo.Context) error {
	if err := a.on(); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"publicKey": a.push.PublicKey()})
}

func (a pushAPI) add(c echo.Context) error {
	if err := a.on(); err != nil {
		return err
	}
	var sub notify.Subscription
	if err := bind(c, &sub); err != nil {
		return err
	}
	var inv *notify.InvalidError
	if err := a.push.Subscribe(sub); errors.As(err, &inv) {
		return newError(http.StatusBadRequest, wire.CodeInvalidField, inv.Msg)
	} else if errors.Is(err, notify.ErrFull) {
		return newError(http.StatusConflict, wire.CodeConflict, fmt.Sprintf("%d browsers are subscribed already; unsubscribe one first", notify.MaxSubscriptions))
	} else if err != nil {
		e := newError(http.StatusInternalServerError, wire.CodeStorageUnavailable, "the subscription could not be stored")
		e.Internal = err
		return e
	}
	return c.JSON(http.StatusCreated, sub)
}

func (a pushAPI) remove(c echo.Context) error {
	if err := a.on(); err != nil {
		return err
	}
	var req struct {
		Endpoint string `json:"endpoint"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	if err := a.push.Unsubscribe(req.Endpoint); errors.Is(err, notify.ErrUnknown) {
		return newError(http.StatusNotFound, wire.CodeNotFound, "no subscription has that endpoint")
	} else if err != nil {
		e := newError(http.StatusInternalServerError, wire.CodeStorageUnavailable, "the subscription could not be removed")
		e.Internal = err
		return e
	}
	return c.NoContent(http.StatusNoContent)
}
