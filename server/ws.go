package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
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

// appSocket serves /ws/app: sessions-sync, then lifecycle events.
func (s *Server) appSocket(c echo.Context) error {
	if !s.track() {
		return newError(http.StatusServiceUnavailable, wire.CodeInternal, "server is shutting down")
	}
	defer s.socks.Done()
	sub, sync, err := s.mgr.Subscribe()
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
	go clientFrames(ctx, cancel, conn, func([]byte) {
		select {
		case out <- errorFrame(wire.CodeInvalidMessage, "/ws/app only sends; it accepts no messages"):
		default:
		}
	})
	if err := conn.send(hub.Frame{Data: sync}); err != nil {
		return nil
	}
	p := pump{conn: conn, out: out}
	p.run(ctx, sub)
	return nil
}

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

	p := pump{conn: conn, out: make(chan hub.Frame, 16), streams: make(chan *hub.Stream, 1)}
	go clientFrames(ctx, cancel, conn, func(data []byte) { p.handle(ctx, att, data) })
	for stream != nil {
		next := p.stream(ctx, stream)
		stream.Close()
		stream = next
	}
	return nil
}

// pump writes one socket's frames. Only its goroutine writes to the conn;
// the reader hands it error answers through out and fresh replays through
// streams.
type pump struct {
	conn    *socket
	out     chan hub.Frame
	streams chan *hub.Stream
	// coalesce is the current stream's, nil when its frames go as they are.
	coalesce func([]hub.Frame, []byte) (hub.Frame, int, []byte)
	batch    []hub.Frame // the last batch taken, handed back to Take
	joined   []byte      // coalesce's buffer, reused
}

// handle runs in the reader goroutine for each client frame.
func (p *pump) handle(ctx context.Context, att worker.Runtime, data []byte) {
	if data == nil {
		p.reply(errorFrame(wire.CodeInvalidMessage, "binary frames are not accepted; send JSON text frames"))
		return
	}
	next, err := att.HandleClient(ctx, data)
	var ce *worker.CodeError
	switch {
	case errors.As(err, &ce):
		p.reply(errorFrame(ce.Code, ce.Error()))
	case err != nil && errors.Is(err, worker.ErrInvalid):
		// The sentinel's own text adds nothing for a person.
		msg := strings.TrimSuffix(err.Error(), ": "+worker.ErrInvalid.Error())
		p.reply(errorFrame(wire.CodeInvalidMessage, strings.TrimPrefix(msg, worker.ErrInvalid.Error()+": ")))
	case err != nil:
		ae := fromDomain(err)
		p.reply(errorFrame(ae.Code, ae.Message))
	case next != nil:
		select {
		case p.streams <- next:
		case <-ctx.Done():
			next.Close()
		}
	}
}

func (p *pump) reply(f hub.Frame) {
	select {
	case p.out <- f:
	default: // a client flooding bad frames loses some answers, not the socket
	}
}

// stream sends a replay then live frames; it returns a new stream when the
// client asked for one, nil when the socket is done.
func (p *pump) stream(ctx context.Context, st *hub.Stream) *hub.Stream {
	p.conn.batch.Cork()
	err := st.Replay(p.conn.send)
	if err := errors.Join(err, p.conn.batch.Uncork()); err != nil {
		return nil
	}
	p.coalesce = st.Coalesce
	return p.run(ctx, st.Sub)
}

// sendQueued sends every frame waiting on sub, as few socket writes.
func (p *pump) sendQueued(sub *hub.Sub) error {
	p.batch = sub.Take(p.batch)
	p.conn.batch.Cork()
	for frames := p.batch; len(frames) > 0; {
		f, n := frames[0], 1
		if p.coalesce != nil {
			f, n, p.joined = p.coalesce(frames, p.joined)
		}
		if err := p.conn.send(f); err != nil {
			_ = p.conn.batch.Uncork()
			return err
		}
		frames = frames[n:]
	}
	return p.conn.batch.Uncork()
}

// run forwards live frames until the subscription or the socket ends.
func (p *pump) run(ctx context.Context, sub *hub.Sub) *hub.Stream {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case <-sub.Ready():
			if p.sendQueued(sub) != nil {
				return nil
			}
		case f := <-p.out:
			if p.conn.send(f) != nil {
				return nil
			}
		case next := <-p.streams:
			return next
		case <-sub.Done():
			p.finish(sub)
			return nil
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := p.conn.Ping(pctx)
			cancel()
			if err != nil {
				return nil
			}
		case <-ctx.Done():
			p.conn.Close(websocket.StatusGoingAway, "server shutting down")
			return nil
		}
	}
}

// finish ends a socket whose subscription ended: a slow client is told to
// reconnect and catch up; otherwise the frames still queued (an exit
// frame) are sent first.
func (p *pump) finish(sub *hub.Sub) {
	if sub.Kicked() {
		p.conn.Close(websocket.StatusTryAgainLater, "client too slow; reconnect with your cursor")
		return
	}
	if p.sendQueued(sub) != nil {
		return
	}
	p.conn.Close(websocket.StatusNormalClosure, "worker stopped")
}
