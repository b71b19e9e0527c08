package persist

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Batch limits: the writer commits at most this much in one transaction, so
// a flood of writes still commits (and reports) in bounded steps.
const (
	maxBatchOps   = 4 * queueLen
	maxBatchBytes = 16 << 20
)

// op is one queued write. apply runs inside the batch's write transaction.
//
// apply may return one of the package's sentinel errors (ErrNotFound,
// ErrSeq, ...) only before it has changed anything: such a rejection fails
// that op alone and the rest of the batch commits. Any other error may leave
// a half-done change, so the writer rolls the whole transaction back and
// runs the batch again without that op.
type op struct {
	apply  func(*wtx) error
	size   int        // payload bytes, for batch sizing
	done   chan error // buffered 1: receives exactly one result
	msgsOf string     // worker id when the op appends messages (OnMessages)
}

// wtx is the state of one pass over a batch: the write transaction plus the
// output appended so far, which is merged per worker and written at the end
// of the pass so that tiny appends do not create a chunk each.
type wtx struct {
	tx  *bolt.Tx
	s   *Store
	out map[string]*pendingOutput
}

// errRetry aborts a pass after an op failed halfway; see op.
var errRetry = errors.New("retry batch without failed op")

// run is the writer goroutine: it commits batch after batch until Close
// closes ops and the queue is drained.
func (s *Store) run() {
	batch := make([]*op, 0, 64)
	for o := range s.ops {
		batch = s.collect(append(batch[:0], o))
		s.commit(batch)
		clear(batch) // drop references to committed payloads
	}
}

// collect adds whatever is already queued to batch, without waiting.
func (s *Store) collect(batch []*op) []*op {
	n := batch[0].size
	for n < maxBatchBytes && len(batch) < maxBatchOps {
		select {
		case o, ok := <-s.ops:
			if !ok {
				return batch
			}
			batch = append(batch, o)
			n += o.size
		default:
			return batch
		}
	}
	return batch
}

// commit applies batch in one transaction and reports each op's result. A
// failed commit (disk full, I/O error) is reported to every op that was in
// it; bbolt rolls the transaction back, so nothing of it is kept.
func (s *Store) commit(batch []*op) {
	res := make([]error, len(batch))
	failed := make([]bool, len(batch))
	var err error
	// Each retry excludes one more op, so this ends after len(batch)+1 passes.
	for range len(batch) + 1 {
		err = s.db.Update(func(tx *bolt.Tx) error {
			return s.pass(tx, batch, res, failed)
		})
		if !errors.Is(err, errRetry) {
			break
		}
	}
	for i, o := range batch {
		if err != nil && !failed[i] {
			res[i] = fmt.Errorf("commit: %w", err)
		}
		o.done <- res[i]
		if res[i] == nil {
			s.notifyMessages(o)
		}
	}
}

// pass applies every op not yet failed. It records rejections in res and
// returns errRetry after marking an op that failed halfway.
func (s *Store) pass(tx *bolt.Tx, batch []*op, res []error, failed []bool) error {
	w := &wtx{tx: tx, s: s}
	for i, o := range batch {
		if failed[i] {
			continue
		}
		err := o.apply(w)
		res[i] = err
		if err != nil && !isRejection(err) {
			failed[i] = true
			return errRetry
		}
	}
	return w.flushOutput()
}

func isRejection(err error) bool {
	for _, e := range []error{ErrNotFound, ErrInvalid, ErrSeq, ErrDuplicate, ErrOffset, ErrChanged, ErrAborted} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
