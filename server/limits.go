package server

import (
	"container/list"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// Limits bounds what a client can hold open, above all one without the
// token. Zero fields take the defaults.
type Limits struct {
	// HeaderTimeout bounds reading a request's headers (default 10 s).
	HeaderTimeout time.Duration
	// BodyTimeout bounds reading a request's body, from the end of its
	// headers (default 30 s). It is not http.Server.ReadTimeout: that one
	// stays on the connection while the handler runs, and when it fires
	// net/http cancels the request's context, cutting long requests.
	BodyTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long (default 60 s).
	IdleTimeout time.Duration
	// MaxUnauthConns caps the connections on which no request has carried
	// the token yet (default 512). Past it, each new connection closes the
	// oldest such one, so a flood of idle connections cannot use up the
	// process's file descriptors and keep the token holder out.
	MaxUnauthConns int
}

func (l Limits) withDefaults() Limits {
	if l.HeaderTimeout <= 0 {
		l.HeaderTimeout = 10 * time.Second
	}
	if l.BodyTimeout <= 0 {
		l.BodyTimeout = 30 * time.Second
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = 60 * time.Second
	}
	if l.MaxUnauthConns <= 0 {
		l.MaxUnauthConns = 512
	}
	return l
}

// connLimiter is a listener that counts the connections not yet
// authenticated, oldest first, and closes the oldest when a new one would
// pass the cap. A connection leaves the count when a request on it carries
// the token (trustConn) or when it closes.
type connLimiter struct {
	net.Listener
	max int

	mu     sync.Mutex
	unauth list.List // of *limitedConn, oldest first
}

// limitedConn is a connection accepted by a connLimiter.
type limitedConn struct {
	net.Conn
	l    *connLimiter
	elem *list.Element // in l.unauth; nil once trusted or closed; l.mu
}

// Accept accepts a connection and counts it, evicting the oldest
// unauthenticated connection if the cap is reached.
func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	lc := &limitedConn{Conn: c, l: l}
	var evict *limitedConn
	l.mu.Lock()
	if l.unauth.Len() >= l.max {
		evict = l.unauth.Remove(l.unauth.Front()).(*limitedConn)
		evict.elem = nil
	}
	lc.elem = l.unauth.PushBack(lc)
	l.mu.Unlock()
	if evict != nil {
		_ = evict.Conn.Close() // its server goroutine sees the error and ends
	}
	return lc, nil
}

func (l *connLimiter) forget(c *limitedConn) {
	l.mu.Lock()
	if c.elem != nil {
		l.unauth.Remove(c.elem)
		c.elem = nil
	}
	l.mu.Unlock()
}

// Close forgets the connection and closes it.
func (c *limitedConn) Close() error {
	c.l.forget(c)
	return c.Conn.Close()
}

type connKey struct{}

// connContext puts the accepted connection in every request's context, for
// trustConn.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if lc, ok := c.(*limitedConn); ok {
		return context.WithValue(ctx, connKey{}, lc)
	}
	return ctx
}

// trustConn takes the request's connection out of the unauthenticated
// count: a request on it carried the token.
func trustConn(r *http.Request) {
	if lc, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
		lc.l.forget(lc)
	}
}

// bodyDeadline gives a request with a body BodyTimeout to send it. The
// deadline is lifted once the body has been read, so it cannot cut a long
// handler, and a hijacked (WebSocket) connection has it cleared by
// net/http. A body that is never read is drained by net/http after the
// handler under the same deadline.
func (s *Server) bodyDeadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body == nil || r.Body == http.NoBody {
			return next(c)
		}
		rc := http.NewResponseController(c.Response().Writer)
		if rc.SetReadDeadline(time.Now().Add(s.limits.BodyTimeout)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		}
		return next(c)
	}
}

// deadlineBody lifts the read deadline when its body ends.
type deadlineBody struct {
	io.ReadCloser
	lift func()
	once sync.Once
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.lift)
	}
	return n, err
}
