package server

import (
	"bytes"
	"net"
	"testing"
	"time"
)

// TestBatchConnHoldsCorkedWrites: while corked, writes reach the socket
// only at Uncork, in order and as one write; uncorked, at once.
func TestBatchConnHoldsCorkedWrites(t *testing.T) {
	srv, cli := net.Pipe()
	defer cli.Close()
	c := &batchConn{Conn: srv, timeout: 5 * time.Second}
	defer c.Close()
	got := make(chan []byte, 4)
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := cli.Read(buf)
			if err != nil {
				close(got)
				return
			}
			got <- bytes.Clone(buf[:n])
		}
	}()
	c.Cork()
	for _, s := range []string{"a", "b", "c"} {
		if _, err := c.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case b := <-got:
		t.Fatalf("corked write reached the socket: %q", b)
	default:
	}
	if err := c.Uncork(); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "abc" {
		t.Fatalf("uncork sent %q, want one write of \"abc\"", b)
	}
	if _, err := c.Write([]byte("d")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "d" {
		t.Fatalf("uncorked write sent %q", b)
	}
}

// TestBatchConnExpireEndsStuckWrite: a write to a client that stopped
// reading ends soon after expire, not at the 5 s timeout, and the conn
// refuses later writes.
func TestBatchConnExpireEndsStuckWrite(t *testing.T) {
	srv, cli := net.Pipe() // nobody reads cli: writes block
	defer cli.Close()
	c := &batchConn{Conn: srv, timeout: time.Minute}
	defer c.Close()
	done := make(chan error, 1)
	go func() {
		_, err := c.Write(make([]byte, 1<<20))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond) // let the write block
	c.expire()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("stuck write reported success")
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("expire did not end a stuck write")
	}
	if _, err := c.Write([]byte("x")); err == nil {
		t.Fatal("write after a failed write succeeded")
	}
}

// recordConn is a net.Conn that keeps the slices written to it: copies
// of the small ones (the batch buffer is reused), the large ones as they
// are.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (r *recordConn) Write(p []byte) (int, error) {
	if len(p) < flushAt {
		p = bytes.Clone(p)
	}
	r.writes = append(r.writes, p)
	return len(p), nil
}
func (r *recordConn) SetWriteDeadline(time.Time) error { return nil }

// TestBatchConnLargeWriteNotCopied: a large frame written while corked
// goes to the socket as the caller's own bytes, after what was held: it
// used to be copied into the batch, once per tab, for a 30 MB tool result.
func TestBatchConnLargeWriteNotCopied(t *testing.T) {
	rc := &recordConn{}
	c := &batchConn{Conn: rc, timeout: time.Second}
	big := make([]byte, 4*flushAt)
	c.Cork()
	for _, p := range [][]byte{[]byte("a"), big, []byte("b")} {
		if _, err := c.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Uncork(); err != nil {
		t.Fatal(err)
	}
	if len(rc.writes) != 3 || string(rc.writes[0]) != "a" || string(rc.writes[2]) != "b" {
		t.Fatalf("writes %d: want a, the frame, b", len(rc.writes))
	}
	if &rc.writes[1][0] != &big[0] || len(rc.writes[1]) != len(big) {
		t.Fatal("the large frame was copied")
	}
}
