package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

// dialTimeout bounds a bridge's connection to its endpoint.
const dialTimeout = 30 * time.Second

// headerTimeout bounds the wait for a CONNECT request's header.
const headerTimeout = 30 * time.Second

// bridge is the host side of one link: a unix socket in the box's run
// directory; each connection on it goes to the link's one endpoint. It
// owns its accept loop and a goroutine pair per connection; close ends
// them all and waits.
type bridge struct {
	ln     net.Listener
	l      link
	log    *slog.Logger
	ctx    context.Context // ends with close: dials in flight give up
	cancel context.CancelFunc

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func listen(path string, l link, log *slog.Logger) (*bridge, error) {
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("sandbox bridge: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("sandbox bridge: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	br := &bridge{ln: ln, l: l, log: log, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{}}
	br.wg.Go(br.accept)
	return br, nil
}

func (br *bridge) accept() {
	for {
		c, err := br.ln.Accept()
		if err != nil {
			return // closed
		}
		if !br.track(c) {
			c.Close()
			return
		}
		br.wg.Go(func() {
			defer br.untrack(c)
			br.serve(c)
		})
	}
}

// track remembers a connection for close; false once closing.
func (br *bridge) track(c net.Conn) bool {
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.conns == nil {
		return false
	}
	br.conns[c] = struct{}{}
	return true
}

func (br *bridge) untrack(c net.Conn) {
	c.Close()
	br.mu.Lock()
	defer br.mu.Unlock()
	delete(br.conns, c)
}

// close stops accepting, ends every connection and waits for the
// goroutines.
func (br *bridge) close() {
	br.cancel()
	br.ln.Close()
	br.mu.Lock()
	for c := range br.conns {
		c.Close()
	}
	br.conns = nil
	br.mu.Unlock()
	br.wg.Wait()
}

func (br *bridge) serve(c net.Conn) {
	if !br.l.connect {
		br.forward(c, br.l.target, nil)
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(headerTimeout))
	r := bufio.NewReader(c)
	req, err := http.ReadRequest(r)
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	if req.Method != http.MethodConnect || !slices.Contains(br.l.allow, req.Host) {
		br.log.Warn("sandbox: refused a connection the box asked for", "method", req.Method, "host", req.Host)
		_, _ = io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		return
	}
	br.forward(c, req.Host, r)
}

// forward connects c to target and copies both ways until both sides are
// done. With ahead (a CONNECT), the tunnel's answer goes first and what c
// sent after its request is passed on.
func (br *bridge) forward(c net.Conn, target string, ahead *bufio.Reader) {
	d := net.Dialer{Timeout: dialTimeout}
	up, err := d.DialContext(br.ctx, "tcp", target)
	if err != nil {
		br.log.Warn("sandbox: the bridge could not reach its endpoint", "endpoint", target, "err", err)
		if ahead != nil {
			_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		}
		return
	}
	if !br.track(up) {
		up.Close()
		return
	}
	defer br.untrack(up)
	var from io.Reader = c
	if ahead != nil {
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
		from = ahead
	}
	var wg sync.WaitGroup
	wg.Go(func() { pipe(up, from) })
	pipe(c, up)
	wg.Wait()
}

// pipe copies src to dst, then half-closes dst so that its reader sees
// the end.
func pipe(dst net.Conn, src io.Reader) {
	_, err := io.Copy(dst, src)
	type closeWriter interface{ CloseWrite() error }
	if cw, ok := dst.(closeWriter); ok && (err == nil || errors.Is(err, io.EOF)) {
		_ = cw.CloseWrite()
		return
	}
	dst.Close()
}
