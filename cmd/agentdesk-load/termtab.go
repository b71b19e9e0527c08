package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// tabConn is one tab's connection to a terminal, whatever its protocol:
// input goes in as bytes, output comes back as the terminal's bytes.
type tabConn interface {
	send(ctx context.Context, input []byte) error
	// next returns the next chunk of terminal output, valid until the next
	// call; empty for a message that carried none.
	next() ([]byte, error)
	// gaps counts output lost or doubled on the wire, as far as the
	// protocol's offsets tell (0 where it has none).
	gaps() int
	close()
}

// errNoMark is returned when a mark did not come within its wait.
var errNoMark = errors.New("mark not seen")

// termTab reads one tab's output on its own goroutine and watches for the
// marks the run expects: a start mark, then optionally an end mark with
// the output between them counted.
type termTab struct {
	conn tabConn
	done chan struct{} // closed when reading stopped; err says why

	mu   sync.Mutex
	want *expectation
	tail []byte // the last bytes of the previous chunk, for marks split across chunks
	err  error
}

// expectation is one wait: start, then (when end is set) every byte up to end.
type expectation struct {
	start, end []byte
	counting   bool
	startAt    time.Time
	endAt      time.Time
	xs, bytes  int64 // 'x' bytes and all bytes strictly between the marks
	met        chan struct{}
}

func newTermTab(conn tabConn) *termTab {
	t := &termTab{conn: conn, done: make(chan struct{})}
	go t.read()
	return t
}

func (t *termTab) read() {
	defer close(t.done)
	for {
		b, err := t.conn.next()
		now := time.Now()
		t.mu.Lock()
		if err != nil {
			t.err = err
			t.mu.Unlock()
			return
		}
		t.see(b, now)
		t.mu.Unlock()
	}
}

// see advances the expectation over one chunk. Marks never hold 'x', so a
// mark split across chunks never changes what is counted.
func (t *termTab) see(b []byte, now time.Time) {
	w := t.want
	if w == nil || len(b) == 0 {
		t.keepTail(b)
		return
	}
	rest := b
	if !w.counting {
		i := markIn(t.tail, rest, w.start)
		if i < 0 {
			t.keepTail(b)
			return
		}
		w.startAt = now
		if w.end == nil {
			t.finish(w, now)
			t.keepTail(b)
			return
		}
		w.counting = true
		rest = rest[i:]
		t.tail = t.tail[:0]
	}
	if i := markIn(t.tail, rest, w.end); i >= 0 {
		body := rest[:max(0, i-len(w.end))]
		w.xs += int64(bytes.Count(body, []byte{'x'}))
		w.bytes += int64(len(body))
		t.finish(w, now)
	} else {
		w.xs += int64(bytes.Count(rest, []byte{'x'}))
		w.bytes += int64(len(rest))
	}
	t.keepTail(b)
}

// markIn returns the index in b just past mark, which may begin in tail,
// or -1.
func markIn(tail, b, mark []byte) int {
	if i := bytes.Index(b, mark); i >= 0 {
		return i + len(mark)
	}
	if len(tail) == 0 {
		return -1
	}
	joined := append(append([]byte(nil), tail...), b[:min(len(b), len(mark)-1)]...)
	if i := bytes.Index(joined, mark); i >= 0 {
		return i + len(mark) - len(tail)
	}
	return -1
}

func (t *termTab) finish(w *expectation, now time.Time) {
	w.endAt = now
	t.want = nil
	close(w.met)
}

// keepTail keeps the last bytes of b that could begin a mark (marks are
// under 16 bytes).
func (t *termTab) keepTail(b []byte) {
	const keep = 16
	if len(b) >= keep {
		t.tail = append(t.tail[:0], b[len(b)-keep:]...)
		return
	}
	t.tail = append(t.tail, b...)
	if len(t.tail) > keep {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-keep:]...)
	}
}

// expect starts watching for start (and end, when not nil) in the output
// that arrives from now on.
func (t *termTab) expect(start, end []byte) *expectation {
	w := &expectation{start: start, end: end, met: make(chan struct{})}
	t.mu.Lock()
	t.want = w
	t.tail = t.tail[:0]
	t.mu.Unlock()
	return w
}

// wait returns once w is met, the tab stopped reading, or timeout passed.
func (t *termTab) wait(w *expectation, timeout time.Duration) error {
	tm := time.NewTimer(timeout)
	defer tm.Stop()
	select {
	case <-w.met:
		return nil
	case <-t.done:
		return fmt.Errorf("tab stopped reading: %w", t.err)
	case <-tm.C:
		t.mu.Lock()
		if t.want == w {
			t.want = nil
		}
		t.mu.Unlock()
		return fmt.Errorf("%w: %q within %s", errNoMark, w.start, timeout)
	}
}

func (t *termTab) close() {
	t.conn.close()
	<-t.done
}
