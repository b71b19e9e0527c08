package chat

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when the test advances it. Tests
// wait until the code under test armed the timer they mean to fire
// (waitTimer), then advance: no test waits for wall-clock time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
	armed  chan struct{} // poked whenever a timer is armed
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

var _ clock = (*fakeClock)(nil)

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Unix(1_700_000_000, 0), armed: make(chan struct{}, 1)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), c: ch})
	select {
	case c.armed <- struct{}{}:
	default:
	}
	return ch
}

// advance moves the clock by d and fires the timers that are due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	left := c.timers[:0]
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			left = append(left, tm)
			continue
		}
		tm.c <- c.now
	}
	c.timers = left
}

// waitTimer waits until a timer due exactly d from now is armed.
func (c *fakeClock) waitTimer(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		c.mu.Lock()
		at := c.now.Add(d)
		found := false
		for _, tm := range c.timers {
			found = found || tm.at.Equal(at)
		}
		c.mu.Unlock()
		if found {
			return
		}
		select {
		case <-c.armed:
		case <-deadline:
			t.Fatalf("no timer armed for %v from now", d)
		}
	}
}
