package sdk

import "sync"

// maxInflight bounds the frame bytes between produce and the publisher.
// The queue between them is bounded in batches, which alone would let 256
// batches of 30 MB tool results wait for the disk. A producer waits while
// this much is in flight, so at most this plus one batch is; the CLI
// reader waits for it before it takes the next line (consume).
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

// acquire adds n, first waiting until less than the limit is in use.
func (b *budget) acquire(n int) {
	for {
		b.wait()
		b.mu.Lock()
		if b.used < b.limit {
			b.used += n
			b.mu.Unlock()
			return
		}
		b.mu.Unlock()
	}
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

// maxTurnBytes bounds the stream_event frames kept for the message being
// streamed, which a tab that attaches mid-message is sent after the
// history. A message streamed in deltas costs several times its text in
// frames; past this, the tab sees the message when it is stored (it
// ignores deltas of a block it has not seen start).
const maxTurnBytes = 8 << 20

// keepStreamLocked keeps a stream_event frame for later attachments.
func (r *Runtime) keepStreamLocked(e *entry) {
	switch {
	case e.endsMessage:
		// Every block of the message is stored by now (the CLI sends a
		// block's complete line before its content_block_stop): a tab
		// attaching later gets them from the log.
		r.clearTurnLocked()
	case r.turnCut:
	case r.turnSize+len(e.frame) > maxTurnBytes:
		r.clearTurnLocked()
		r.turnCut = true
	default:
		r.turn = append(r.turn, e.frame)
		r.turnSize += len(e.frame)
	}
}

func (r *Runtime) clearTurnLocked() {
	r.turn, r.turnSize, r.turnCut = nil, 0, false
}
