// Package hub fans frames out from one producer to many subscribers without
// ever blocking the producer.
//
// Each subscriber has its own bounded queue. A subscriber whose queue is full
// is kicked: its Done channel closes and it must reconnect and catch up by
// cursor. Frames are marshalled once by the producer and the same bytes go to
// every subscriber.
//
// Every published frame carries a cursor (a sequence number or a byte
// offset). Subscribe returns the cursor of the last published frame under the
// same lock that Publish takes, so a subscriber can replay everything up to
// that cursor from storage and then read live frames with nothing lost or
// doubled at the seam.
package hub

import "sync"

// Frame is one message on the wire: a text (JSON) or binary WebSocket frame.
type Frame struct {
	Binary bool
	Data   []byte
}

// DefaultQueue is the queue length used when Subscribe is given 0.
const DefaultQueue = 1024

// Hub is safe for concurrent use by any number of goroutines.
type Hub struct {
	mu     sync.Mutex
	subs   map[*Sub]struct{}
	cursor uint64
	closed bool
}

// New returns a hub whose cursor starts at cursor.
func New(cursor uint64) *Hub {
	return &Hub{subs: make(map[*Sub]struct{}), cursor: cursor}
}

// Sub is one subscriber. Read frames from C until Done closes.
type Sub struct {
	c      chan Frame
	done   chan struct{}
	h      *Hub
	once   sync.Once
	kicked bool
}

// C delivers frames in publish order.
func (s *Sub) C() <-chan Frame { return s.c }

// Done is closed when the subscriber was kicked for being slow, when it
// unsubscribed, or when the hub closed.
func (s *Sub) Done() <-chan struct{} { return s.done }

// Kicked reports whether the subscriber was dropped for falling behind.
// Valid once Done is closed.
func (s *Sub) Kicked() bool {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return s.kicked
}

// Close unsubscribes. It is safe to call more than once.
func (s *Sub) Close() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.remove(s)
}

// Subscribe registers a subscriber with a queue of n frames (DefaultQueue
// when n <= 0) and returns it with the cursor of the last frame published
// before it: every later frame reaches the subscriber, no earlier one does.
// On a closed hub the returned Sub is already done.
func (h *Hub) Subscribe(n int) (*Sub, uint64) {
	if n <= 0 {
		n = DefaultQueue
	}
	s := &Sub{c: make(chan Frame, n), done: make(chan struct{}), h: h}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		s.once.Do(func() { close(s.done) })
		return s, h.cursor
	}
	h.subs[s] = struct{}{}
	return s, h.cursor
}

// Cursor returns the cursor of the last published frame.
func (h *Hub) Cursor() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cursor
}

// Publish sends f to every subscriber and sets the hub's cursor. It never
// blocks: a subscriber whose queue is full is kicked.
func (h *Hub) Publish(cursor uint64, f Frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cursor = cursor
	for s := range h.subs {
		select {
		case s.c <- f:
		default:
			s.kicked = true
			h.remove(s)
		}
	}
}

// Len returns the number of subscribers.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Close ends every subscription; later subscribers are done at once.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for s := range h.subs {
		h.remove(s)
	}
}

// remove must be called with h.mu held.
func (h *Hub) remove(s *Sub) {
	delete(h.subs, s)
	s.once.Do(func() { close(s.done) })
}
