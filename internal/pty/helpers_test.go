package pty_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/persist"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitFor bounds every wait in these tests.
const waitFor = 2 * time.Minute

func openStore(tb testing.TB, opts *persist.Options) *persist.Store {
	tb.Helper()
	s, err := persist.Open(filepath.Join(tb.TempDir(), "agentdesk.db"), opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

func openLog(tb testing.TB, s *persist.Store, id string) *pty.Log {
	tb.Helper()
	l, err := pty.OpenLog(s, id)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(l.Close)
	return l
}

// start runs cmd on a PTY writing into l; the test stops it at cleanup.
func start(tb testing.TB, l *pty.Log, cmd ...string) *pty.Proc {
	tb.Helper()
	p, err := pty.Start(pty.Options{
		Command: cmd, Log: l, Cols: 80, Rows: 24,
		Env: []string{"PATH=" + os.Getenv("PATH"), "TERM=dumb", "PS1=$ ", "HOME=" + tb.TempDir()},
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = p.Stop(tb.Context()) })
	return p
}

// received is what a client got from a stream. It checks as it goes that
// output frames are contiguous and that history-end is where output stands.
type received struct {
	out       bytes.Buffer
	started   bool
	first     int64 // offset of the first byte the client was given
	next      int64 // offset the next output byte must have
	histEnd   int64 // -1 until history-end
	holes     int   // truncated frames
	ctrl      []map[string]any
	afterHist []map[string]any // control frames after history-end
	discard   bool             // check and count output, keep none
}

func newReceived() *received { return &received{histEnd: -1} }

func (r *received) add(f hub.Frame) error {
	if !f.Binary {
		return r.addJSON(f.Data)
	}
	if len(f.Data) < 8 {
		return fmt.Errorf("binary frame of %d bytes", len(f.Data))
	}
	off := int64(binary.BigEndian.Uint64(f.Data))
	if !r.started {
		r.started, r.first, r.next = true, off, off
	}
	if off != r.next {
		return fmt.Errorf("frame at %d, want %d", off, r.next)
	}
	if !r.discard {
		r.out.Write(f.Data[8:])
	}
	r.next += int64(len(f.Data) - 8)
	return nil
}

func (r *received) addJSON(data []byte) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("text frame %q: %w", data, err)
	}
	if r.histEnd >= 0 {
		r.afterHist = append(r.afterHist, m)
	}
	r.ctrl = append(r.ctrl, m)
	off, _ := m["offset"].(float64)
	switch m["type"] {
	case "truncated":
		// Before any output, or across a hole: output resumes past next.
		if r.started && int64(off) <= r.next {
			return fmt.Errorf("truncated at %d, output already at %d", int64(off), r.next)
		}
		if !r.started {
			r.started, r.first = true, int64(off)
		}
		r.next = int64(off)
		r.holes++
	case "history-end":
		if !r.started {
			r.started, r.first, r.next = true, int64(off), int64(off)
		}
		if int64(off) != r.next {
			return fmt.Errorf("history-end at %d, output at %d", int64(off), r.next)
		}
		r.histEnd = int64(off)
	}
	return nil
}

func (r *received) has(s string) bool { return strings.Contains(r.out.String(), s) }

// replay sends the stream's replay into a new received.
func replay(tb testing.TB, s *hub.Stream) *received {
	tb.Helper()
	r := newReceived()
	if err := s.Replay(r.add); err != nil {
		tb.Fatal(err)
	}
	return r
}

// live reads the stream's live frames into r until cond holds, failing
// after waitFor or when the subscription ends first.
func live(tb testing.TB, s *hub.Stream, r *received, cond func(*received) bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	for !cond(r) {
		f, err := s.Sub.Recv(ctx)
		switch {
		case errors.Is(err, hub.ErrDone):
			tb.Fatalf("stream ended (kicked %v) before condition; got %q", s.Sub.Kicked(), tail(r.out.String()))
		case err != nil:
			tb.Fatalf("timed out; got %q", tail(r.out.String()))
		}
		if err := r.add(f); err != nil {
			tb.Fatal(err)
		}
	}
}

// drain takes what is still queued on a finished subscription.
func drain(tb testing.TB, s *hub.Stream, r *received) {
	for range s.Sub.Len() {
		f, err := s.Sub.Recv(context.Background()) // queued: never waits
		if err != nil {
			return
		}
		if err := r.add(f); err != nil {
			tb.Fatal(err)
		}
	}
}

func tail(s string) string {
	if len(s) > 300 {
		return "..." + s[len(s)-300:]
	}
	return s
}

func attach(tb testing.TB, l *pty.Log, cursor string) *hub.Stream {
	tb.Helper()
	s, err := l.Attach(cursor)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// stored returns l's committed output in [from, end).
func stored(tb testing.TB, s *persist.Store, l *pty.Log, id string, from, end int64) []byte {
	tb.Helper()
	if err := l.Sync(tb.Context()); err != nil {
		tb.Fatal(err)
	}
	var out []byte
	for from < end {
		b, at, err := s.ReadOutput(id, from, int(end-from))
		if err != nil || at != from || len(b) == 0 {
			tb.Fatalf("read output at %d: got %d bytes at %d, %v", from, len(b), at, err)
		}
		out = append(out, b...)
		from += int64(len(b))
	}
	return out
}

func waitDone(tb testing.TB, p *pty.Proc) {
	tb.Helper()
	select {
	case <-p.Done():
	case <-time.After(waitFor):
		tb.Fatal("process did not exit")
	}
}

// gone reports whether pid no longer runs (a zombie nobody reaps counts
// as gone: it holds no resources and cannot run).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// waitGone polls until pid is gone.
func waitGone(tb testing.TB, pid int) {
	tb.Helper()
	deadline := time.Now().Add(waitFor)
	for !gone(pid) {
		if time.Now().After(deadline) {
			tb.Fatalf("process %d still alive", pid)
		}
		time.Sleep(5 * time.Millisecond) // polling interval, not a wait for an event
	}
}
