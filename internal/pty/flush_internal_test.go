package pty

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/persist"
)

// TestQuietLogPinsNoBuffers: a burst of output makes the Log keep full-size
// buffers for the next MiB; once output stops, they are dropped, so a
// terminal that printed a lot once does not hold memory while it idles.
func TestQuietLogPinsNoBuffers(t *testing.T) {
	s, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := OpenLog(s, "w")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	streaming := false // a write handed a full buffer over and got a full-size one
	for range 3 * flushSize / len(chunk) {
		if _, err := l.Write(chunk); err != nil {
			t.Fatal(err)
		}
		l.mu.Lock()
		streaming = streaming || cap(l.buf) == flushSize
		l.mu.Unlock()
	}
	if !streaming {
		t.Fatal("a burst did not switch the Log to full-size buffers")
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		l.mu.Lock()
		buf, spare := l.buf, l.spare
		l.mu.Unlock()
		if buf == nil && spare == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the burst the Log still holds %d + %d bytes of buffers", cap(buf), cap(spare))
		}
		time.Sleep(flushDelay)
	}
	if err := l.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, end, _ := s.OutputRange("w"); end != int64(3*flushSize) {
		t.Fatalf("stored end %d, want %d", end, 3*flushSize)
	}
}
