package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// coder/websocket flushes its buffer to the socket after every message: one
// write system call, and one TCP segment through the loopback or network
// stack, per frame. A tab catching up on 10,000 messages, or falling 200
// frames behind a flood, would cost 10,000 or 200 of them. batchConn sits
// under the library and holds the bytes of every frame written while its
// pump is corked, then sends them in one write when the pump uncorks. The
// pump corks only while it has more frames in hand, so a lone frame (a
// keystroke echo) still leaves at once: no timer is involved.

const (
	// flushAt sends a corked batch early once it holds this much, so a
	// long replay streams instead of building up in memory.
	flushAt = 64 << 10
	// keepBuf is the largest batch buffer kept between batches.
	keepBuf = 256 << 10
	// expireAfter bounds socket writes once the socket's context ended.
	expireAfter = 100 * time.Millisecond
)

// batchConn is a net.Conn whose writes can be held and sent together. It
// also puts a deadline on every write that reaches the socket, so the
// frames written through it need no per-frame context timer. Safe for
// concurrent use: the library writes control frames (pongs, close) from
// other goroutines.
type batchConn struct {
	net.Conn

	// dlMu orders deadline changes: a write sets its deadline from
	// timeout, and expire shortens both, whichever runs first.
	dlMu    sync.Mutex
	timeout time.Duration

	mu     sync.Mutex
	corked bool
	buf    []byte
	err    error // the first failed write; every later write fails with it
}

// Write sends p, or holds it while the conn is corked.
func (c *batchConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	if !c.corked {
		return len(p), c.sendLocked(p)
	}
	if len(p) >= flushAt {
		// A large frame (a tool result of many MB, shared by every
		// tab): send what is held, then the frame itself, without
		// copying it into the batch.
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
		return len(p), c.sendLocked(p)
	}
	c.buf = append(c.buf, p...)
	if len(c.buf) >= flushAt {
		return len(p), c.flushLocked()
	}
	return len(p), nil
}

// Cork holds writes until Uncork.
func (c *batchConn) Cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// Uncork sends what was held and lets later writes through.
func (c *batchConn) Uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if c.err != nil {
		return c.err
	}
	return c.flushLocked()
}

func (c *batchConn) flushLocked() error {
	if len(c.buf) == 0 {
		return nil
	}
	err := c.sendLocked(c.buf)
	if cap(c.buf) > keepBuf {
		c.buf = nil
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// sendLocked writes p to the socket within the timeout. A failed write
// leaves the stream of frames broken, so the conn refuses every later one.
func (c *batchConn) sendLocked(p []byte) error {
	c.dlMu.Lock()
	err := c.Conn.SetWriteDeadline(time.Now().Add(c.timeout))
	c.dlMu.Unlock()
	if err != nil {
		c.err = fmt.Errorf("set write deadline: %w", err)
		return c.err
	}
	if _, err := c.Conn.Write(p); err != nil {
		c.err = fmt.Errorf("write socket: %w", err)
		return c.err
	}
	return nil
}

// expire gives a write in progress, and every later one, at most
// expireAfter: the socket's context ended (shutdown), so a write stuck on a
// client that stopped reading must not hold shutdown for the full timeout,
// while a close frame to a client that reads still gets out. It never
// waits for a write in progress.
func (c *batchConn) expire() {
	c.dlMu.Lock()
	defer c.dlMu.Unlock()
	c.timeout = min(c.timeout, expireAfter)
	_ = c.Conn.SetWriteDeadline(time.Now().Add(c.timeout))
}

// batchWriter hands coder/websocket a batchConn in place of the raw
// connection when it hijacks the request. Everything else goes to the
// wrapped ResponseWriter.
type batchWriter struct {
	http.ResponseWriter
	timeout time.Duration
	conn    *batchConn // set by Hijack
}

// Hijack takes over the connection and wraps it. The library writes
// frames through the returned bufio.Writer, which sits on the batchConn.
func (w *batchWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	raw, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if brw.Writer.Buffered() > 0 { // the 101 response is flushed before hijacking
		return nil, nil, fmt.Errorf("hijack: %d response bytes not sent", brw.Writer.Buffered())
	}
	w.conn = &batchConn{Conn: raw, timeout: w.timeout}
	return w.conn, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(w.conn, 8<<10)), nil
}

// Unwrap lets http.ResponseController reach the wrapped writer.
func (w *batchWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
