// Package ptytest reads a PTY worker's stream (terminal, pty-agent) the way a
// socket client does, for tests: output bytes by offset, checked to be
// contiguous, and the control frames in order.
package ptytest

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
)

// Client is one attached stream's view. It is used by one goroutine.
type Client struct {
	St   *hub.Stream
	Out  bytes.Buffer     // output bytes received, in offset order
	Next int64            // the offset the next output frame must start at; -1 before the first
	Ctrl []map[string]any // text frames received, decoded
}

// Attach opens a stream with attach (a runtime's Attach method) from
// cursor, reads its replay, and closes it when the test ends.
func Attach(tb testing.TB, attach func(context.Context, string) (*hub.Stream, error), cursor string) *Client {
	tb.Helper()
	st, err := attach(tb.Context(), cursor)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(st.Close)
	c := &Client{St: st, Next: -1}
	if err := st.Replay(c.Add); err != nil {
		tb.Fatal(err)
	}
	return c
}

// Add takes one frame: a text frame is decoded into Ctrl, an output frame
// must start where the previous one ended, or where a truncated frame
// said output resumes.
func (c *Client) Add(f hub.Frame) error {
	if !f.Binary {
		var m map[string]any
		if err := json.Unmarshal(f.Data, &m); err != nil {
			return err
		}
		c.Ctrl = append(c.Ctrl, m)
		if off, ok := m["offset"].(float64); ok && m["type"] == "truncated" {
			if int64(off) <= c.Next {
				return fmt.Errorf("truncated at %d, output already at %d", int64(off), c.Next)
			}
			c.Next = int64(off)
		}
		return nil
	}
	off := int64(binary.BigEndian.Uint64(f.Data))
	if c.Next >= 0 && off != c.Next {
		return fmt.Errorf("frame at %d, want %d", off, c.Next)
	}
	c.Out.Write(f.Data[8:])
	c.Next = off + int64(len(f.Data)-8)
	return nil
}

// Until reads live frames until cond holds, failing when the stream ends
// first or wait passes.
func (c *Client) Until(tb testing.TB, wait time.Duration, cond func(*Client) bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for !cond(c) {
		f, err := c.St.Sub.Recv(ctx)
		switch {
		case errors.Is(err, hub.ErrDone):
			tb.Fatalf("stream ended; output %q, frames %v", c.Out.String(), c.Ctrl)
		case err != nil:
			tb.Fatalf("timed out; output %q, frames %v", c.Out.String(), c.Ctrl)
		}
		if err := c.Add(f); err != nil {
			tb.Fatal(err)
		}
	}
}

// Drain waits for the stream to end and reads the frames left.
func (c *Client) Drain(tb testing.TB) {
	tb.Helper()
	<-c.St.Sub.Done()
	for {
		f, err := c.St.Sub.Recv(context.Background()) // done: never waits
		if err != nil {
			return
		}
		if err := c.Add(f); err != nil {
			tb.Fatal(err)
		}
	}
}

// Has reports whether the output so far contains s.
func (c *Client) Has(s string) bool { return strings.Contains(c.Out.String(), s) }

// Frame returns the first text frame of type typ, or nil.
func (c *Client) Frame(typ string) map[string]any {
	for _, m := range c.Ctrl {
		if m["type"] == typ {
			return m
		}
	}
	return nil
}

// OutputReader is the part of *persist.Store that Stored reads.
type OutputReader interface {
	ReadOutput(workerID string, from int64, max int) ([]byte, int64, error)
}

// Stored returns every byte of workerID's output the store holds, holes
// left out.
func Stored(tb testing.TB, s OutputReader, workerID string) []byte {
	tb.Helper()
	var all []byte
	for from := int64(0); ; {
		b, at, err := s.ReadOutput(workerID, from, 1<<20)
		if err != nil {
			tb.Fatal(err)
		}
		if len(b) == 0 {
			return all
		}
		all, from = append(all, b...), at+int64(len(b))
	}
}
