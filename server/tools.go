package server

import (
	"context"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker/tools"
)

// toolsAPI is the tool bridge (docs/api-extensions.md, "Tools from the
// browser"): the providers' socket and the tools a session sees. A nil
// service is off.
type toolsAPI struct {
	s     *Server
	tools *tools.Service
}

func (a toolsAPI) routes(e *echo.Echo, api *echo.Group) {
	api.GET("/sessions/:sid/tools", a.list)
	e.GET("/ws/tools", a.socket)
}

func (a toolsAPI) on() error {
	if a.tools == nil {
		return newError(http.StatusNotFound, wire.CodeNotFound, "the tool bridge is off in this server")
	}
	return nil
}

// list answers GET /api/sessions/:sid/tools.
func (a toolsAPI) list(c echo.Context) error {
	if err := a.on(); err != nil {
		return err
	}
	list, err := a.tools.Tools(c.Param("sid"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"tools": list})
}

// socket serves /ws/tools: one provider per connection. Its frames go to
// the provider's Handle; the provider's frames (calls, cancels, answers)
// come back out. When the socket ends, the provider's tools go and its
// calls in flight end with an error.
func (a toolsAPI) socket(c echo.Context) error {
	if err := a.on(); err != nil {
		return err
	}
	s := a.s
	if !s.track() {
		return newError(http.StatusServiceUnavailable, wire.CodeInternal, "server is shutting down")
	}
	defer s.socks.Done()
	conn, err := s.accept(c)
	if err != nil {
		return nil // Accept already answered the request.
	}
	defer conn.CloseNow()
	conn.SetReadLimit(wire.MaxToolFrame)
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	defer conn.bound(ctx)()
	p := a.tools.Connect()
	defer p.Close()
	go clientFrames(ctx, cancel, conn, p.Handle)
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case f := <-p.Frames():
			if conn.send(hub.Frame{Data: f}) != nil {
				return nil
			}
		case <-p.Done():
			conn.Close(websocket.StatusPolicyViolation, "provider dropped: it did not read its frames")
			return nil
		case <-ping.C:
			pctx, pcancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Ping(pctx)
			pcancel()
			if err != nil {
				return nil
			}
		case <-ctx.Done():
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return nil
		}
	}
}
