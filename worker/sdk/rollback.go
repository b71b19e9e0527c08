package sdk

import (
	"errors"

	"github.com/agentdesk/agentdesk/persist"
)

// Numbering after a failed commit. produce numbers stored entries before
// their commit is known (the pipeline keeps several batches in flight), so
// when a commit fails (a full disk), the seqs it took and those of every
// batch numbered after it are not on disk. The store refuses a batch that
// does not continue its log (persist.ErrSeq), so those later batches fail
// too, and the log keeps no hole. The publisher, which sees the results in
// order, then asks the producers to number again from the last committed
// seq, in a new epoch; a failure of a batch from an older epoch is one of
// those that had to fail, and reports the first failure's cause.
//
// The publisher cannot take seqMu (a producer holding it may be waiting
// for room in the publisher's queue), so it leaves the rollback in rb for
// the next produce to apply.

// rollback is the numbering to resume from: seq is the last committed one.
type rollback struct {
	seq, epoch uint64
}

// commitFailed handles a failed commit of b on the publisher and returns
// the error to report for it.
func (r *Runtime) commitFailed(b *batch, err error) error {
	if b.epoch < r.pubEpoch {
		// Numbered after a failed batch: its own error is ErrSeq, which
		// says nothing to a person; the cause is the first failure's.
		if errors.Is(err, persist.ErrSeq) && r.rbErr != nil {
			return r.rbErr
		}
		return err
	}
	// Every batch of this epoch before b committed: b.first-1 is the last
	// seq on disk.
	r.pubEpoch = b.epoch + 1
	r.rbErr = err
	r.rbMu.Lock()
	r.rb = &rollback{seq: b.first - 1, epoch: r.pubEpoch}
	r.rbMu.Unlock()
	return err
}

// applyRollback resumes the numbering after a failed commit, if the
// publisher asked for it. The caller holds seqMu.
func (r *Runtime) applyRollback() {
	r.rbMu.Lock()
	rb := r.rb
	r.rb = nil
	r.rbMu.Unlock()
	if rb != nil {
		r.seq, r.epoch = rb.seq, rb.epoch
	}
}
