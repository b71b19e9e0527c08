package persist

import (
	"errors"
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// writer is the store's one writer: the queue of operations and the
// goroutine that commits them in batches (group commit), and the read
// transactions' check that the store is open. The Store's methods queue
// their writes here.
type writer struct {
	db *bolt.DB
	s  *Store // whose output limits each pass (wtx) applies

	// mu guards closed and every send on ops, so close can close ops
	// without racing a sender. Senders hold the read lock while blocked on
	// a full queue; the writer goroutine never takes mu, so they always
	// make progress.
	mu     sync.RWMutex
	closed bool
	ops    chan *op
	wg     sync.WaitGroup // the writer goroutine (run)

	onMsgs onMsgsHook // see Store.OnMessages
}

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

// close stops taking operations, lets the goroutine commit what is
// queued and waits for it; false when it was closed already.
func (q *writer) close() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	q.closed = true
	close(q.ops) // the writer drains what is queued, then exits
	q.mu.Unlock()
	q.wg.Wait()
	return true
}

// run is the writer goroutine: it commits batch after batch until close
// closes ops and the queue is drained.
func (q *writer) run() {
	batch := make([]*op, 0, 64)
	for o := range q.ops {
		batch = q.collect(append(batch[:0], o))
		q.commit(batch)
		clear(batch) // drop references to committed payloads
	}
}

// collect adds whatever is already queued to batch, without waiting.
func (q *writer) collect(batch []*op) []*op {
	n := batch[0].size
	for n < maxBatchBytes && len(batch) < maxBatchOps {
		select {
		case o, ok := <-q.ops:
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
func (q *writer) commit(batch []*op) {
	res := make([]error, len(batch))
	failed := make([]bool, len(batch))
	var err error
	// Each retry excludes one more op, so this ends after len(batch)+1 passes.
	for range len(batch) + 1 {
		err = q.db.Update(func(tx *bolt.Tx) error {
			return q.pass(tx, batch, res, failed)
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
			q.notifyMessages(o)
		}
	}
}

// pass applies every op not yet failed. It records rejections in res and
// returns errRetry after marking an op that failed halfway.
func (q *writer) pass(tx *bolt.Tx, batch []*op, res []error, failed []bool) error {
	w := &wtx{tx: tx, s: q.s}
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

// enqueue hands o to the writer and returns its result channel. It blocks
// only while the queue is full.
func (q *writer) enqueue(o *op) <-chan error {
	o.done = make(chan error, 1)
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		o.done <- ErrClosed
		return o.done
	}
	q.ops <- o
	return o.done
}

// do runs apply in the writer and waits for its commit.
func (q *writer) do(apply func(*wtx) error) error {
	return <-q.enqueue(&op{apply: apply})
}

func (q *writer) isClosed() bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.closed
}

// view runs fn in a read transaction. fn must copy whatever it keeps: bbolt
// values are valid only inside the transaction.
func (q *writer) view(fn func(*bolt.Tx) error) error {
	if q.isClosed() {
		return ErrClosed
	}
	err := q.db.View(fn)
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}
