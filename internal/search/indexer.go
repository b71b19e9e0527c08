package search

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
)

// Catalog is where the indexer learns the sessions, their workers and
// titles, and hears that they changed (in agentdesk, the domain's
// sessions, through a small adapter: this package knows no worker).
type Catalog interface {
	Sessions() []Session
	// Subscribe returns a subscription that is told each change of the
	// sessions; its frames' content does not matter.
	Subscribe() (*hub.Sub, []byte, error)
}

// Session is what the index needs of a session.
type Session struct {
	ID        string
	Title     string
	CreatedAt time.Time
	Workers   []string // the ids of its workers, newest first (a hit opens the newest that holds the message)
}

// Indexer owns the index and the goroutine that keeps it up to date.
type Indexer struct {
	store *persist.Store
	cat   Catalog
	log   *slog.Logger

	idxMu  sync.RWMutex // guards idx against Close; bleve itself is safe for concurrent use
	idx    bleve.Index
	fields *docFields    // how a message's document is built (docbuild.go)
	ord    atomic.Uint64 // the next message's ordinal (tier.go); written by the run goroutine

	deadline time.Duration // bounds one search: searchDeadline, shorter in tests
	routes   routes        // each session's workers, newest first (route.go)

	mu      sync.Mutex // guards pending, sweep, behind and gen: held only briefly
	pending map[string]struct{}
	sweep   bool
	wake    chan struct{}     // buffered 1: "look at pending"
	behind  map[string]uint64 // workers with messages maybe not indexed → gen of their last mark (pace.go)
	gen     uint64

	lastWake atomic.Int64 // Unix ns of the store's last Wake (pace.go)

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup

	// Owned by the run goroutine.
	known map[string]string // worker id → session id, from the catalog
	cat0  catalog           // what the index holds

	passGen   uint64       // x.gen when the pass under way began
	passBegan time.Time    // when it began
	passN     int          // messages it read
	forced    bool         // it follows a rest that ended at its bound, not at a pause (pace.go)
	batch     *bleve.Batch // the open batch (catchup.go), nil when none
	batchN    int          // messages read into batch
	batchOrd  uint64       // the next ordinal, counting batch
	inflight  chan error   // the batch being written (writer.go), nil when none

	// beforeBatch, when set (tests), runs before each batch is written; an
	// error fails the batch.
	beforeBatch func() error
}

// Open opens (or builds) the index in dir and starts the indexer, which
// first catches up every worker from the store. Close stops it.
func Open(dir string, store *persist.Store, cat Catalog, log *slog.Logger) (*Indexer, error) {
	return open(dir, store, cat, log, nil)
}

func open(dir string, store *persist.Store, cat Catalog, log *slog.Logger, beforeBatch func() error) (*Indexer, error) {
	if log == nil {
		log = slog.Default()
	}
	idx, err := openIndex(dir, log)
	if err != nil {
		return nil, err
	}
	c, err := loadCatalog(idx)
	if err != nil {
		_ = idx.Close()
		return nil, err
	}
	ord, err := loadOrd(idx)
	if err != nil {
		_ = idx.Close()
		return nil, err
	}
	fields, err := newDocFields(idx.Mapping())
	if err != nil {
		_ = idx.Close()
		return nil, err
	}
	x := &Indexer{
		store: store, cat: cat, log: log, idx: idx, fields: fields, cat0: c, deadline: searchDeadline,
		pending: map[string]struct{}{}, sweep: true, wake: make(chan struct{}, 1), behind: map[string]uint64{},
		stop: make(chan struct{}), beforeBatch: beforeBatch,
	}
	x.ord.Store(ord)
	x.batchOrd = ord
	x.wake <- struct{}{} // the first pass sweeps everything
	sub, _, err := cat.Subscribe()
	if err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("subscribe to sessions: %w", err)
	}
	x.wg.Go(func() { x.run(sub) })
	return x, nil
}

// Wake tells the indexer that messages of workerID were committed. It never
// blocks: it records the id and signals the indexer if it is not signalled
// already. A wake-up that is lost (the process ends first) is harmless: the
// next start catches up from the store.
func (x *Indexer) Wake(workerID string) {
	x.lastWake.Store(time.Now().UnixNano())
	x.again(workerID)
}

// again asks for another look at workerID's messages.
func (x *Indexer) again(workerID string) {
	x.mu.Lock()
	x.pending[workerID] = struct{}{}
	x.markBehind(workerID)
	x.mu.Unlock()
	select {
	case x.wake <- struct{}{}:
	default:
	}
}

// resweep asks for a pass over the whole catalog: sessions were created,
// renamed or deleted.
func (x *Indexer) resweep() {
	x.mu.Lock()
	x.sweep = true
	x.mu.Unlock()
	select {
	case x.wake <- struct{}{}:
	default:
	}
}

// Close stops the indexer and closes the index. What is not indexed yet is
// indexed at the next start.
func (x *Indexer) Close() error {
	x.stopOnce.Do(func() { close(x.stop) })
	x.wg.Wait()
	x.idxMu.Lock()
	defer x.idxMu.Unlock()
	if x.idx == nil {
		return ErrClosed
	}
	err := x.idx.Close()
	x.idx = nil
	if err != nil {
		return fmt.Errorf("close search index: %w", err)
	}
	return nil
}

func (x *Indexer) stopped() bool {
	select {
	case <-x.stop:
		return true
	default:
		return false
	}
}

// run is the indexer goroutine.
func (x *Indexer) run(sub *hub.Sub) {
	defer func() { sub.Close() }()
	var spare []hub.Frame
	for {
		select {
		case <-x.stop:
			return
		case <-sub.Ready():
			spare = sub.Take(spare[:0])
			x.resweep()
			continue
		case <-sub.Done():
			// Kicked for falling behind, or the manager closed: look again
			// at everything, and listen anew while the manager runs.
			sub = x.resubscribe(sub)
			continue
		case <-x.wake:
		}
		x.mu.Lock()
		pending, sweep, gen := x.pending, x.sweep, x.gen
		x.pending, x.sweep = map[string]struct{}{}, false
		x.mu.Unlock()
		x.passGen = gen
		began := time.Now()
		x.passBegan, x.passN = began, 0
		failed, err := x.pass(pending, sweep)
		switch {
		case err == nil:
			x.caughtUp(gen, nil)
		case failed != nil:
			x.caughtUp(gen, failed)
		}
		if err != nil && !x.stopped() {
			x.log.Error("search indexing failed; it is tried again at the next change", "err", err)
		}
		var ok bool
		if x.forced, ok = x.rest(began); !ok {
			return
		}
	}
}

func (x *Indexer) resubscribe(old *hub.Sub) *hub.Sub {
	old.Close()
	x.resweep()
	if !old.Kicked() {
		return newIdleSub()
	}
	sub, _, err := x.cat.Subscribe()
	if err != nil {
		return newIdleSub()
	}
	return sub
}

// newIdleSub is a subscription that never reports anything, for when the
// catalog can no longer be subscribed to.
func newIdleSub() *hub.Sub {
	sub, _ := hub.New(0).Subscribe(1)
	return sub
}

// pass brings the index up to date with the pending workers, or with
// everything when sweep is set. When some workers failed and the batches
// were written, it names them in failed; when the batches failed, failed
// is nil and err is not.
func (x *Indexer) pass(pending map[string]struct{}, sweep bool) (failed map[string]struct{}, err error) {
	if sweep {
		if err := x.syncCatalog(); err != nil {
			return nil, err
		}
		for wid := range x.known {
			pending[wid] = struct{}{}
		}
	}
	var errs []error
	failed = map[string]struct{}{}
	for wid := range pending {
		if x.stopped() {
			return nil, nil
		}
		if _, ok := x.known[wid]; !ok && !sweep {
			x.resweep() // a worker the catalog had not shown yet
			continue
		}
		if err := x.catchUp(wid); err != nil {
			errs = append(errs, err)
			failed[wid] = struct{}{}
		}
	}
	if x.stopped() {
		return nil, nil // not written: caught up at the next start
	}
	err = x.flush()
	if err == nil {
		err = x.wait() // the next pass reads the seq marks from the index
	}
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	return failed, errors.Join(errs...)
}
