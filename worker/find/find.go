// Package find is the search across every stored conversation
// (docs/api-extensions.md, "Search"): the domain's face of
// internal/search's index, which it opens over the store, keeps told of
// the sessions and of each commit of messages, and closes.
package find

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/search"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// Hit is one search hit; Result a search's answer.
type (
	Hit    = search.Hit
	Result = search.Result
)

// Sessions is what the index learns of the sessions: the worker.Manager.
type Sessions interface {
	Sessions() []worker.Session
	Subscribe() (*hub.Sub, []byte, error)
}

// ErrUnavailable is Search's answer when the index cannot be opened: the
// server runs without search rather than not at all.
var ErrUnavailable = errors.New("search is not available on this server")

// Finder owns the search index and its indexing goroutine (in
// internal/search), opened on first use: the first search, or the first
// commit of messages. A server that is only a terminal never loads the
// index. Close stops them.
type Finder struct {
	dir   string
	store *persist.Store
	cat   catalog
	log   *slog.Logger

	idx  atomic.Pointer[search.Indexer] // nil until opened
	kick chan struct{}                  // a commit asks the opener for the index
	stop chan struct{}
	wg   sync.WaitGroup // the opener

	mu     sync.Mutex // opening, failed, closed
	failed bool
	closed bool
}

// New returns the search over store, its index in dir, opened (or built)
// on first use; from then on it indexes every session m shows and the
// messages of every commit of store. Close stops it.
func New(dir string, store *persist.Store, m Sessions, log *slog.Logger) *Finder {
	if log == nil {
		log = slog.Default()
	}
	f := &Finder{dir: dir, store: store, cat: catalog{m}, log: log, kick: make(chan struct{}, 1), stop: make(chan struct{})}
	store.OnMessages(f.wake)
	f.wg.Go(f.opener)
	return f
}

// wake runs on the store's write path, so it never blocks: it tells the
// open index, or asks the opener to open it (the open's first pass
// catches up every worker, this one too).
func (f *Finder) wake(workerID string) {
	if x := f.idx.Load(); x != nil {
		x.Wake(workerID)
		return
	}
	select {
	case f.kick <- struct{}{}:
	default:
	}
}

// opener opens the index when a commit asks for it, then ends.
func (f *Finder) opener() {
	select {
	case <-f.kick:
		_, _ = f.index()
	case <-f.stop:
	}
}

// index returns the open index, opening it the first time.
func (f *Finder) index() (*search.Indexer, error) {
	if x := f.idx.Load(); x != nil {
		return x, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.closed:
		return nil, search.ErrClosed
	case f.failed:
		return nil, ErrUnavailable
	}
	if x := f.idx.Load(); x != nil {
		return x, nil
	}
	x, err := search.Open(f.dir, f.store, f.cat, f.log)
	if err != nil {
		f.failed = true // derived data: not retried until the next start
		f.log.Error("search is not available", "err", err)
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	f.idx.Store(x)
	return x, nil
}

// Opened reports whether the index was opened (for start-up's tests).
func (f *Finder) Opened() bool { return f.idx.Load() != nil }

// Search answers up to limit hits for q, best first, of session sid only
// when sid is not "" (internal/search's Indexer.Search). The first search
// opens the index.
func (f *Finder) Search(q string, limit int, sid string) (Result, error) {
	x, err := f.index()
	if err != nil {
		return Result{}, err
	}
	return x.Search(q, limit, sid)
}

// Close stops indexing and closes the index if it was opened; what is not
// indexed yet is indexed when it is next opened. Call it before the store
// closes.
func (f *Finder) Close() error {
	f.store.OnMessages(nil)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return search.ErrClosed
	}
	f.closed = true // no open from now on; one under way has ended
	f.mu.Unlock()
	close(f.stop)
	f.wg.Wait()
	if x := f.idx.Load(); x != nil {
		return x.Close()
	}
	return nil
}

// catalog shows the sessions to the index (search.Catalog).
type catalog struct{ m Sessions }

func (c catalog) Sessions() []search.Session {
	ss := c.m.Sessions()
	out := make([]search.Session, len(ss))
	for i, s := range ss {
		out[i] = search.Session{ID: s.ID, Title: s.Title, CreatedAt: s.CreatedAt, Workers: newestFirst(s.Workers)}
	}
	return out
}

func (c catalog) Subscribe() (*hub.Sub, []byte, error) { return c.m.Subscribe() }

// newestFirst returns the ids of ws, the newest worker first.
func newestFirst(ws []worker.Info) []string {
	ws = slices.Clone(ws)
	slices.SortFunc(ws, func(a, b worker.Info) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID) // ids are UUIDv7: later sorts higher
	})
	ids := make([]string, len(ws))
	for i, w := range ws {
		ids[i] = w.ID
	}
	return ids
}
