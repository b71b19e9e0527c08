// Package hub fans frames out from one producer to many subscribers without
// ever blocking the producer.
//
// Each subscriber has its own bounded queue. A subscriber whose queue is full
// is kicked: its Done channel closes and it must reconnect and catch up by
// cursor. Frames are marshalled once by the producer and the same bytes go to
// every subscriber.
//
// A subscriber is woken once per batch, not once per frame: Ready signals
// that frames wait, and Take hands over all of them at once. A socket
// writer that fell behind by a hundred frames then sends them in one go
// instead of waking a hundred times.
//
// Every published frame carries a cursor (a sequence number or a byte
// offset). Subscribe returns the cursor of the last published frame under the
// same lock that Publish takes, so a subscriber can replay everything up to
// that cursor from storage and then read live frames with nothing lost or
// doubled at the seam.
package hub

import (
	"context"
	"errors"
	"sync"
)

// Frame is one message on the wire: a text (JSON) or binary WebSocket frame.
type Frame struct {
	Binary bool
	Data   []byte
}

// DefaultQueue is the queue length used when Subscribe is given 0.
const DefaultQueue = 4096

// MaxQueueBytes bounds the bytes waiting for one subscriber, whatever its
// queue length: a client this far behind costs less to serve from storage
// than from memory.
const MaxQueueBytes = 8 << 20

// ErrDone is returned by Recv once the subscription has ended and every
// frame queued before the end has been received.
var ErrDone = errors.New("subscription ended")

// Hub is safe for concurrent use by any number of goroutines.
type Hub struct {
	mu     sync.Mutex
	subs   map[*Sub]struct{}
	cursor uint64
	closed bool
	held   bool // Hold: frames are queued, subscribers woken at Release
}

// New returns a hub whose cursor starts at cursor.
func New(cursor uint64) *Hub {
	return &Hub{subs: make(map[*Sub]struct{}), cursor: cursor}
}

// Sub is one subscriber. It is safe for concurrent use, but frames are
// meant for one reader: wait on Ready, then Take, until Done closes and a
// last Take comes back empty.
type Sub struct {
	h     *Hub
	ready chan struct{} // holds a token while frames may be waiting
	done  chan struct{}
	once  sync.Once
	limit int

	mu     sync.Mutex
	q      []Frame
	qBytes int
	kicked bool // guarded by h.mu
}

// Ready receives a value when frames were queued since the last Take. One
// value may stand for many frames, and a Take after it may find none.
func (s *Sub) Ready() <-chan struct{} { return s.ready }

// Done is closed when the subscriber was kicked for being slow, when it
// unsubscribed, or when the hub closed. Frames queued before that can
// still be taken.
func (s *Sub) Done() <-chan struct{} { return s.done }

// Take returns every waiting frame, in publish order. spare (the slice a
// previous Take returned, once its frames are sent) becomes the new queue,
// so a reader that hands its batches back allocates nothing.
func (s *Sub) Take(spare []Frame) []Frame {
	clear(spare) // drop the sent frames' bytes
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.q
	s.q, s.qBytes = spare[:0], 0
	return out
}

// Len returns the number of waiting frames.
func (s *Sub) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.q)
}

// Recv returns the next frame, one at a time, waiting for it until ctx
// ends. It returns ErrDone once the subscription is done and drained.
// It suits tests and low-rate readers; socket writers use Take.
func (s *Sub) Recv(ctx context.Context) (Frame, error) {
	for {
		if f, ok := s.pop(); ok {
			return f, nil
		}
		select {
		case <-s.ready:
		case <-s.done:
			if f, ok := s.pop(); ok {
				return f, nil
			}
			return Frame{}, ErrDone
		case <-ctx.Done():
			return Frame{}, ctx.Err()
		}
	}
}

func (s *Sub) pop() (Frame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.q) == 0 {
		return Frame{}, false
	}
	f := s.q[0]
	s.q[0] = Frame{}
	s.q = s.q[1:]
	s.qBytes -= len(f.Data)
	return f, true
}

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

// push queues f; false means the queue is full. A queue under
// MaxQueueBytes takes one more frame of any size, so it holds at most
// MaxQueueBytes plus one frame: a frame larger than the bound (a huge
// tool result) is shared with every subscriber and must not kick the
// ones that keep up.
func (s *Sub) push(f Frame) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.q) >= s.limit || s.qBytes >= MaxQueueBytes {
		return false
	}
	s.q = append(s.q, f)
	s.qBytes += len(f.Data)
	if len(s.q) == 1 && !s.h.held {
		s.signal()
	}
	return true
}

// signal leaves a token in ready unless one waits already.
func (s *Sub) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Subscribe registers a subscriber with a queue of n frames (DefaultQueue
// when n <= 0; MaxQueueBytes bounds it too) and returns it with the cursor
// of the last frame published before it: every later frame reaches the
// subscriber, no earlier one does. On a closed hub the returned Sub is
// already done.
func (h *Hub) Subscribe(n int) (*Sub, uint64) {
	if n <= 0 {
		n = DefaultQueue
	}
	s := &Sub{h: h, ready: make(chan struct{}, 1), done: make(chan struct{}), limit: n}
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

// Publish queues f for every subscriber and sets the hub's cursor. It never
// blocks: a subscriber whose queue is full is kicked.
func (h *Hub) Publish(cursor uint64, f Frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cursor = cursor
	for s := range h.subs {
		if !s.push(f) {
			s.kicked = true
			h.remove(s)
		}
	}
}

// Hold makes the following Publishes queue their frames without waking
// the subscribers, until Release wakes each one that has frames waiting.
// A producer that publishes a batch (the frames of one commit) wraps it
// in Hold and Release: each socket writer then wakes once and takes the
// whole batch into one write, instead of waking at the first frame and
// again for the ones published while it ran. Publish never blocks either
// way, and the queues' bounds and kicks are the same.
func (h *Hub) Hold() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = true
}

// Release ends a Hold and wakes the subscribers with frames waiting.
func (h *Hub) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = false
	for s := range h.subs {
		if s.Len() > 0 {
			s.signal()
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
