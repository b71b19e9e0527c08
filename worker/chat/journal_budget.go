package chat

import "sync"

// maxInflight bounds the frame bytes between produce and the journal's
// publisher. The queue between them is bounded in batches, which alone
// would let 256 batches of 30 MB tool results wait for the disk. A
// producer waits while this much is in flight, so at most this plus one
// batch per producer is; the agent's reader waits for it before it takes
// the next line (consume).
const maxInflight = 4 << 20

// budget counts bytes in flight. Safe for concurrent use.
type budget struct {
	limit int
	mu    sync.Mutex
	used  int
	freed chan struct{} // closed (and replaced) by every release
}

func newBudget(limit int) *budget {
	return &budget{limit: limit, freed: make(chan struct{})}
}

// wait returns once less than the limit is in use.
func (b *budget) wait() {
	for {
		b.mu.Lock()
		if b.used < b.limit {
			b.mu.Unlock()
			return
		}
		freed := b.freed
		b.mu.Unlock()
		<-freed
	}
}

// add adds n without waiting: the caller waited (wait) before it took
// the lock it holds now, so that the publisher can drain meanwhile.
func (b *budget) add(n int) {
	b.mu.Lock()
	b.used += n
	b.mu.Unlock()
}

// release returns n and wakes every waiter.
func (b *budget) release(n int) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}
