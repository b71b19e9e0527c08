package chat

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// fakeQueueClock is a clock whose time moves only when the test says, and
// whose timers fire only then.
type fakeQueueClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeQueueTimer
	armed  chan struct{} // one value per AfterFunc
}

type fakeQueueTimer struct {
	at      time.Time
	f       func()
	stopped *bool
}

func newFakeQueueClock() *fakeQueueClock {
	return &fakeQueueClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), armed: make(chan struct{}, 64)}
}

func (c *fakeQueueClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeQueueClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	stopped := new(bool)
	c.timers = append(c.timers, fakeQueueTimer{at: c.now.Add(d), f: f, stopped: stopped})
	c.armed <- struct{}{}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !*stopped
		*stopped = true
		return was
	}
}

// advance moves the time and runs the timers now due, as their own
// goroutines would.
func (c *fakeQueueClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, tm := range c.timers {
		if !*tm.stopped && !tm.at.After(c.now) {
			*tm.stopped = true
			due = append(due, tm.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// queueHarness is a harness whose queue lives by a fake clock. The clock
// is set before anything is queued: the delivery New started reads it
// only for a queued item.
func queueHarness(t *testing.T) (*harness, *fakeQueueClock) {
	h := newHarness(t, harnessOptions{})
	c := newFakeQueueClock()
	h.rt.q.clock = c
	return h, c
}

func contents(items []wire.QueueItem) string {
	var s []string
	for _, it := range items {
		s = append(s, it.Content)
	}
	return strings.Join(s, ",")
}

func mustQueue(t *testing.T, h *harness) string {
	t.Helper()
	items, err := h.rt.Queue()
	if err != nil {
		t.Fatal(err)
	}
	return contents(items)
}

// TestQueueEdits: items held back by notBefore are edited, moved and
// removed; every change reaches the tabs as a queue frame, a tab that
// attaches later gets the queue, and bad requests change nothing.
func TestQueueEdits(t *testing.T) {
	h, c := queueHarness(t)
	a := attach(t, h.rt, "")
	later := c.Now().Add(time.Hour)
	var ids []string
	for _, s := range []string{"a", "b", "c"} {
		it, err := h.rt.Enqueue(t.Context(), s, &later)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, it.ID)
	}
	pos0, pos2, pos9, neg := 0, 2, 9, -1
	text := "b edited"
	if _, err := h.rt.EditQueued(t.Context(), ids[1], &text, &pos0); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.EditQueued(t.Context(), ids[0], nil, &pos2); err != nil {
		t.Fatal(err)
	}
	if got := mustQueue(t, h); got != "b edited,c,a" {
		t.Fatalf("queue after edits %q", got)
	}
	a.until(func(f frame) bool { return f.Type == "queue" && strings.Join(queueOf(t, f), ",") == "b edited,c,a" })
	empty := " "
	bad := []struct {
		name string
		err  error
		want error
	}{
		{"unknown id", h.rt.RemoveQueued(t.Context(), "nope"), worker.ErrNotFound},
		{"position past the end", editErr(h.rt.EditQueued(t.Context(), ids[2], nil, &pos9)), worker.ErrInvalid},
		{"negative position", editErr(h.rt.EditQueued(t.Context(), ids[2], nil, &neg)), worker.ErrInvalid},
		{"empty content", editErr(h.rt.EditQueued(t.Context(), ids[2], &empty, nil)), worker.ErrInvalid},
		{"empty new item", editErr(h.rt.Enqueue(t.Context(), "", nil)), worker.ErrInvalid},
		{"oversized", editErr(h.rt.Enqueue(t.Context(), strings.Repeat("x", MaxUserMessage+1), nil)), worker.ErrInvalid},
		{"bad when", h.rt.Submit(t.Context(), "x", "later"), worker.ErrInvalid},
	}
	for _, b := range bad {
		if !errors.Is(b.err, b.want) {
			t.Errorf("%s: %v, want %v", b.name, b.err, b.want)
		}
	}
	if err := h.rt.RemoveQueued(t.Context(), ids[2]); err != nil {
		t.Fatal(err)
	}
	if got := mustQueue(t, h); got != "b edited,a" {
		t.Fatalf("queue after remove %q", got)
	}
	// A reload gets the queue after the history.
	r := attach(t, h.rt, "")
	last := r.frames[len(r.frames)-1]
	if last.Type != "queue" || strings.Join(queueOf(t, last), ",") != "b edited,a" {
		t.Errorf("attach replay ends with %s, want the queue", last.raw)
	}
	if n, _ := h.store.MessageCount("w1"); n != 0 {
		t.Errorf("%d messages stored: nothing was due", n)
	}
}

func editErr(_ wire.QueueItem, err error) error { return err }

// TestQueueNotBefore: an item is not delivered before its time, and is
// delivered when its timer fires while the chat is idle.
func TestQueueNotBefore(t *testing.T) {
	h, c := queueHarness(t)
	a := attach(t, h.rt, "")
	at := c.Now().Add(5 * time.Hour)
	if _, err := h.rt.Enqueue(t.Context(), "continue", &at); err != nil {
		t.Fatal(err)
	}
	select { // the delivery found it not due and armed its timer
	case <-c.armed:
	case <-time.After(waitFor):
		t.Fatal("no timer armed")
	}
	if n, _ := h.store.MessageCount("w1"); n != 0 {
		t.Fatalf("delivered before its time: %d messages", n)
	}
	c.advance(5 * time.Hour)
	res := a.until(isResult)
	if !strings.Contains(string(res.raw), "continue") {
		t.Errorf("result %s", res.raw)
	}
	if got := strings.Join(storedUsers(t, h), ","); got != "continue" {
		t.Errorf("stored user messages %q", got)
	}
	if got := mustQueue(t, h); got != "" {
		t.Errorf("queue after delivery %q", got)
	}
}

// TestQueueStoppedWorker: a worker that no longer drives the conversation
// refuses changes, and its successor finds the queue.
func TestQueueStoppedWorker(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	at := time.Now().Add(24 * time.Hour) // the real clock: the next worker's
	if _, err := h.rt.Enqueue(t.Context(), "kept", &at); err != nil {
		t.Fatal(err)
	}
	h.stop()
	if _, err := h.rt.Enqueue(t.Context(), "late", nil); !errors.Is(err, worker.ErrNotRunning) {
		t.Errorf("Enqueue after Stop: %v, want ErrNotRunning", err)
	}
	h2 := newHarness(t, harnessOptions{store: h.store, conv: h.conv, restored: true})
	if got := mustQueue(t, h2); got != "kept" {
		t.Errorf("the next worker's queue %q", got)
	}
}
