package sdk

import "sync"

// maxInflight bounds the frame bytes between produce and the publisher.
// The queue between them is bounded in batches, which alone would let 256
// batches of 30 MB tool results wait for the disk. A producer waits while
// this much is in flight, so at most this plus one batch is.
const maxInflight = 16 << 20

// budget counts bytes in flight. acquire waits while the count is at or
// over the limit; release wakes it.
type budget struct {
	limit int
	mu    sync.Mutex
	used  int
	freed chan struct{} // holds a token after a release
}

func newBudget(limit int) *budget {
	return &budget{limit: limit, freed: make(chan struct{}, 1)}
}

// acquire adds n, first waiting until less than the limit is in use.
func (b *budget) acquire(n int) {
	for {
		b.mu.Lock()
		if b.used < b.limit {
			b.used += n
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
		<-b.freed
	}
}

// release returns n and wakes a waiting acquire.
func (b *budget) release(n int) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	select {
	case b.freed <- struct{}{}:
	default:
	}
}
