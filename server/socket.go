package server

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
)

const (
	writeTimeout = 5 * time.Second
	// pingEvery finds half-open sockets (a laptop that went to sleep);
	// browsers answer pings themselves, even in background tabs.
	pingEvery = 20 * time.Second
)

// socket is an accepted WebSocket whose frames can be sent in batches.
type socket struct {
	*websocket.Conn
	batch *batchConn
}

// accept upgrades the request. The Origin was already checked by
// originGuard; coder/websocket checks it again against the Host, and the
// allowed origins are passed on so both checks agree.
func (s *Server) accept(c echo.Context) (*socket, error) {
	var patterns []string
	for _, o := range s.allowedOrigins {
		patterns = append(patterns, o.Host)
	}
	bw := &batchWriter{ResponseWriter: c.Response(), timeout: writeTimeout}
	conn, err := websocket.Accept(bw, c.Request(), &websocket.AcceptOptions{OriginPatterns: patterns})
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(wire.MaxClientFrame)
	return &socket{Conn: conn, batch: bw.conn}, nil
}

// bound makes the socket's writes give up quickly once ctx ends. Frames
// are written without a context (see send), so this is what ends a write
// stuck on a client that stopped reading when the server shuts down. The
// returned func stops it.
func (s *socket) bound(ctx context.Context) func() bool {
	return context.AfterFunc(ctx, s.batch.expire)
}

// send writes one frame. The batchConn bounds the write with writeTimeout,
// so the context carries no timer: a per-frame timer costs more than the
// write itself when a batch holds hundreds of frames.
func (s *socket) send(f hub.Frame) error {
	typ := websocket.MessageText
	if f.Binary {
		typ = websocket.MessageBinary
	}
	return s.Write(context.Background(), typ, f.Data)
}

// track registers a socket handler so Shutdown waits for it; false once
// shutting down.
func (s *Server) track() bool {
	if s.ctx.Err() != nil {
		return false
	}
	s.socks.Add(1)
	return true
}

// errorFrame is the socket's {"type":"error"} answer to a client frame.
func errorFrame(code wire.Code, msg string) hub.Frame {
	return hub.Frame{Data: wire.Error(code, msg)}
}

// clientFrames reads the client's frames until the socket ends, handing
// each text frame to handle. It cancels the socket's context when it
// returns, which ends the writer too.
func clientFrames(ctx context.Context, cancel context.CancelFunc, conn *socket, handle func([]byte)) {
	defer cancel()
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			if clientBroke(ctx, err) {
				// The library refuses the frame (an unmasked one, say)
				// without closing; without this the pump would close
				// with 1001 as if the server were going away.
				_ = conn.Close(websocket.StatusProtocolError, "protocol error")
			}
			return
		}
		if typ != websocket.MessageText {
			handle(nil)
			continue
		}
		handle(data)
	}
}

// clientBroke reports whether a read failed because the client broke the
// protocol, rather than because it closed, went away or the socket ended.
// Errors for which the library already sent a close frame (1002, 1009)
// land here too; a second Close then does nothing.
func clientBroke(ctx context.Context, err error) bool {
	var ne net.Error
	return ctx.Err() == nil && websocket.CloseStatus(err) == -1 &&
		!errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) &&
		!errors.Is(err, net.ErrClosed) && !errors.As(err, &ne)
}
