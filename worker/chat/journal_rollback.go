package chat

import (
	"errors"
	"sync"

	"github.com/agentdesk/agentdesk/persist"
)

// Numbering after a failed commit. produce numbers stored entries before
// their commit is known (the journal keeps several batches in flight), so
// when a commit fails (a full disk), the seqs it took and those of every
// batch numbered after it are not on disk. The store refuses a batch that
// does not continue its log (persist.ErrSeq), so those later batches fail
// too, and the log keeps no hole. The publisher, which sees the results in
// order, then asks the producers to number again from the last committed
// seq, in a new epoch; a failure of a batch from an older epoch is one of
// those that had to fail, and reports the first failure's cause.
//
// The publisher cannot take the journal's mu (a producer holding it may be
// waiting for room in the publisher's queue), so it leaves the rollback in
// rollbacks for the next produce to take.

// rollback is the numbering to resume from: seq is the last committed one.
type rollback struct {
	seq, epoch uint64
}

// rollbacks passes rollbacks from the publisher to the producers.
type rollbacks struct {
	mu   sync.Mutex // guards next
	next *rollback  // set by the publisher, taken by produce

	epoch uint64 // the publisher's: batches of older epochs had to fail
	cause error  // the publisher's: why the last rollback happened
}

// failed handles a failed commit of b on the publisher and returns the
// error to report for it.
func (r *rollbacks) failed(b *batch, err error) error {
	if b.epoch < r.epoch {
		// Numbered after a failed batch: its own error is ErrSeq, which
		// says nothing to a person; the cause is the first failure's.
		if errors.Is(err, persist.ErrSeq) && r.cause != nil {
			return r.cause
		}
		return err
	}
	// Every batch of this epoch before b committed: b.first-1 is the last
	// seq on disk.
	r.epoch = b.epoch + 1
	r.cause = err
	r.mu.Lock()
	r.next = &rollback{seq: b.first - 1, epoch: r.epoch}
	r.mu.Unlock()
	return err
}

// take returns the rollback the publisher asked for, if any, once.
func (r *rollbacks) take() *rollback {
	r.mu.Lock()
	defer r.mu.Unlock()
	rb := r.next
	r.next = nil
	return rb
}
