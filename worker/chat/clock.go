package chat

import "time"

// clock is the time the stall watchdog and the escalating Stop wait on. It
// is a field of the Runtime so that tests raise a stall, or move a Stop to
// its next stage, by advancing a fake clock instead of waiting.
type clock interface {
	Now() time.Time
	// After is time.After: the channel receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
