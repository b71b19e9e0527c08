package agentproc

import "sync"

// TailCap is how much of an agent's stderr a Tail keeps.
const TailCap = 64 << 10

// Tail keeps the last TailCap bytes written to it (an agent's stderr, for
// the error a person reads). The zero value is ready; safe for concurrent
// use.
type Tail struct {
	mu  sync.Mutex
	buf []byte
}

func (r *Tail) Write(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, b...)
	// Trim only when double the cap, so copying stays amortized O(1).
	if len(r.buf) > 2*TailCap {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-TailCap:]...)
	}
}

func (r *Tail) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf[max(0, len(r.buf)-TailCap):])
}
