// Package find is the search across every stored conversation
// (docs/api-extensions.md, "Search"): the domain's face of
// internal/search's index, which it opens over the store, keeps told of
// the sessions and of each commit of messages, and closes.
package find

import (
	"cmp"
	"fmt"
	"log/slog"
	"slices"

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

// Finder owns the search index and its indexing goroutine (in
// internal/search); Close stops them.
type Finder struct {
	store *persist.Store
	idx   *search.Indexer
}

// Open opens (or builds) the index in dir and starts indexing: every
// session m shows, and the messages of every commit of store from now on.
func Open(dir string, store *persist.Store, m Sessions, log *slog.Logger) (*Finder, error) {
	idx, err := search.Open(dir, store, catalog{m}, log)
	if err != nil {
		return nil, fmt.Errorf("open search index: %w", err)
	}
	store.OnMessages(idx.Wake)
	return &Finder{store: store, idx: idx}, nil
}

// Search answers up to limit hits for q, best first, of session sid only
// when sid is not "" (internal/search's Indexer.Search).
func (f *Finder) Search(q string, limit int, sid string) (Result, error) {
	return f.idx.Search(q, limit, sid)
}

// Behind returns how many stored messages the index does not hold yet:
// during a flood of messages the indexer rests between passes to leave the
// cores to the chat, and catches up after it (internal/search, pace.go).
func (f *Finder) Behind() (int, error) {
	return f.idx.Behind()
}

// Close stops indexing and closes the index; what is not indexed yet is
// indexed at the next start. Call it before the store closes.
func (f *Finder) Close() error {
	f.store.OnMessages(nil)
	return f.idx.Close()
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
