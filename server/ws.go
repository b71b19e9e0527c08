package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/notify"
)

// appSocket serves /ws/app: sessions-sync, then lifecycle events.
func (s *Server) appSocket(c echo.Context) error {
	if !s.track() {
		return newError(http.StatusServiceUnavailable, wire.CodeInternal, "server is shutting down")
	}
	defer s.socks.Done()
	sub, sync, att, err := s.att.Subscribe()
	if err != nil {
		return err
	}
	defer sub.Close()
	conn, err := s.accept(c)
	if err != nil {
		return nil // Accept already answered the request.
	}
	defer conn.CloseNow()

	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	defer conn.bound(ctx)()
	out := make(chan hub.Frame, 16)
	var view *notify.View // nil when push is off
	if s.push != nil {
		view = s.push.View()
	}
	defer view.Close()
	go clientFrames(ctx, cancel, conn, func(data []byte) {
		if sid, ok := viewingFrame(data); ok {
			view.Show(sid)
			return
		}
		select {
		case out <- errorFrame(wire.CodeInvalidMessage, "/ws/app accepts only {\"type\":\"viewing\",\"sessionId\"}"):
		default:
		}
	})
	if err := conn.send(hub.Frame{Data: sync}); err != nil {
		return nil
	}
	if err := conn.send(hub.Frame{Data: att}); err != nil {
		return nil
	}
	p := pump{conn: conn, out: out}
	p.run(ctx, sub)
	return nil
}

// noticesParam is the query parameter (notices=1) by which an sdk
// socket's client takes an import's messages as history-appended notices
// (and reads them by page) rather than one sdk-message frame each, which
// is what a client that knows only API.md gets.
const noticesParam = "notices"

// workerSocket serves /ws/sessions/:sid/workers/:wid: every kind's
// runtime serves a socket.
func (s *Server) workerSocket(c echo.Context) error {
	if !s.track() {
		return newError(http.StatusServiceUnavailable, wire.CodeInternal, "server is shutting down")
	}
	defer s.socks.Done()
	info, att, err := s.builtRuntime(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	stream, err := att.Attach(ctx, c.QueryParam(worker.CursorParam(info.Kind)))
	if err != nil {
		return err
	}
	conn, err := s.accept(c)
	if err != nil {
		stream.Close()
		return nil
	}
	defer conn.CloseNow()
	defer conn.bound(ctx)()

	p := pump{conn: conn, out: make(chan hub.Frame, 16), streams: make(chan *hub.Stream, 1),
		notices: c.QueryParam(noticesParam) == "1"}
	handle := raiseFrameLimit(conn, info.Kind, func(data []byte) { p.handle(ctx, att, data) })
	go clientFrames(ctx, cancel, conn, handle)
	for stream != nil {
		next := p.stream(ctx, stream)
		stream.Close()
		stream = next
	}
	return nil
}
