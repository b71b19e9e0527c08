package pty_test

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
)

// pattern is n bytes that differ at every offset mod 251, so a shifted
// or doubled range shows up.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// writeChunks writes data into l in pieces of size n.
func writeChunks(t *testing.T, l *pty.Log, data []byte, n int) {
	t.Helper()
	for len(data) > 0 {
		k := min(n, len(data))
		if _, err := l.Write(data[:k]); err != nil {
			t.Fatal(err)
		}
		data = data[k:]
	}
}

func TestAttachOffsets(t *testing.T) {
	const total = 150_000
	data := pattern(total)
	tests := []struct {
		cursor string
		from   int64
	}{
		{"", 0},
		{"0", 0},
		{"1", 1},
		{"70001", 70001},
		{strconv.Itoa(total), total},
		{"99999999", total},
	}
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	writeChunks(t, l, data, 10_000)
	for _, tt := range tests {
		t.Run("cursor="+tt.cursor, func(t *testing.T) {
			st := attach(t, l, tt.cursor)
			r := replay(t, st)
			if r.first != tt.from || r.histEnd != total {
				t.Fatalf("replay [%d, %d), want [%d, %d)", r.first, r.histEnd, tt.from, total)
			}
			if !bytes.Equal(r.out.Bytes(), data[tt.from:]) {
				t.Fatalf("replay bytes differ from written ones")
			}
			if len(r.ctrl) != 1 {
				t.Fatalf("control frames %v, want history-end only", r.ctrl)
			}
		})
	}
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
}

func TestAttachReplayFrameSize(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	writeChunks(t, l, pattern(300_000), 300_000)
	n := 0
	err := attach(t, l, "").Replay(func(f hub.Frame) error {
		if f.Binary && len(f.Data) > 8+64<<10 {
			return fmt.Errorf("frame of %d bytes", len(f.Data))
		}
		n++
		return nil
	})
	if err != nil || n < 5 {
		t.Fatalf("replay: %d frames, %v", n, err)
	}
}

func TestAttachInvalidCursor(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	for _, c := range []string{"x", "-1", "1.5", " 1", "0x10", "99999999999999999999"} {
		if _, err := l.Attach(c); !errors.Is(err, wire.ErrInvalid) {
			t.Errorf("Attach(%q) = %v, want ErrInvalid", c, err)
		}
	}
}

func TestAttachThenLive(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	data := pattern(50_000)
	writeChunks(t, l, data[:20_000], 3000)
	st := attach(t, l, "5000")
	writeChunks(t, l, data[20_000:], 3000)
	l.PublishTail(hub.Frame{Data: []byte(`{"type":"ping"}`)})
	r := replay(t, st)
	live(t, st, r, func(r *received) bool { return len(r.afterHist) == 1 })
	if r.histEnd != 20_000 || !bytes.Equal(r.out.Bytes(), data[5000:]) {
		t.Fatalf("history-end %d, %d bytes: want 20000 and bytes [5000, 50000)", r.histEnd, r.out.Len())
	}
	if r.afterHist[0]["type"] != "ping" {
		t.Fatalf("live control frame %v", r.afterHist[0])
	}
}

func TestAttachTruncated(t *testing.T) {
	s := openStore(t, &persist.Options{OutputCap: 16 << 10})
	l := openLog(t, s, "w1")
	data := pattern(100_000)
	writeChunks(t, l, data, 1000)
	if err := l.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	start, end, err := s.OutputRange("w1")
	if err != nil || start == 0 || end != int64(len(data)) {
		t.Fatalf("range [%d, %d), %v: want a dropped start", start, end, err)
	}
	tests := []struct {
		cursor    string
		from      int64
		truncated bool
	}{
		{"", start, true},
		{"0", start, true},
		{strconv.FormatInt(start-1, 10), start, true},
		{strconv.FormatInt(start, 10), start, false},
		{strconv.FormatInt(start+10, 10), start + 10, false},
	}
	for _, tt := range tests {
		t.Run("cursor="+tt.cursor, func(t *testing.T) {
			r := replay(t, attach(t, l, tt.cursor))
			gotTrunc := r.ctrl[0]["type"] == "truncated"
			if gotTrunc != tt.truncated || r.first != tt.from {
				t.Fatalf("frames %v from %d, want truncated=%v from %d", r.ctrl, r.first, tt.truncated, tt.from)
			}
			if !bytes.Equal(r.out.Bytes(), data[tt.from:]) {
				t.Fatal("replay bytes differ from written ones")
			}
		})
	}
}

func TestOpenLogContinues(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	writeChunks(t, l, []byte("first "), 100)
	l.Close()
	l2 := openLog(t, s, "w1")
	if l2.End() != 6 {
		t.Fatalf("reopened end %d, want 6", l2.End())
	}
	writeChunks(t, l2, []byte("second"), 100)
	r := replay(t, attach(t, l2, ""))
	if r.out.String() != "first second" || l2.Err() != nil {
		t.Fatalf("replay %q, err %v", r.out.String(), l2.Err())
	}
}

func TestTailFrames(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	writeChunks(t, l, []byte("out"), 100)
	before := attach(t, l, "")
	exit := hub.Frame{Data: wire.ExitStatus(0, "")}
	l.PublishTail(exit, exit)
	after := attach(t, l, "")
	// Each stream sees the exit frame exactly once: live for the stream
	// opened before, in the replay tail for the one opened after.
	rb := replay(t, before)
	live(t, before, rb, func(r *received) bool { return len(r.afterHist) == 1 })
	ra := replay(t, after)
	if len(rb.afterHist) != 1 || len(ra.afterHist) != 1 || ra.afterHist[0]["type"] != "exit" {
		t.Fatalf("before %v, after %v", rb.afterHist, ra.afterHist)
	}
	l.Close()
	select {
	case <-after.Sub.Done():
	default:
		t.Fatal("Close left a subscription open")
	}
	if after.Sub.Len() != 0 {
		t.Fatal("exit frame doubled on the live side")
	}
}

// TestStoredWithoutAttach checks that output reaches the store by itself
// (the flush delay), not only when a client attaches or the Log closes.
func TestStoredWithoutAttach(t *testing.T) {
	s := openStore(t, nil)
	l := openLog(t, s, "w1")
	writeChunks(t, l, []byte("typed"), 1)
	deadline := time.Now().Add(waitFor)
	for {
		if _, end, err := s.OutputRange("w1"); err != nil || end == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("output never committed")
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
	l.Close()
	if _, err := l.Write([]byte("late")); !errors.Is(err, pty.ErrClosed) {
		t.Fatalf("Write after Close: %v", err)
	}
	l.Close() // idempotent
}
