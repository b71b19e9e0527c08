package search

import (
	"cmp"
	"slices"
	"sync"

	"github.com/agentdesk/agentdesk/worker"
)

// A message has one identity across the workers of a conversation: its
// uuid (the CLI's, or the one agentdesk gave the CLI for a user message),
// which every worker's log keeps when it imports the history after a
// switch. The index holds one document per message (messageDocID), and a
// hit opens the newest worker of the session that holds the message: the
// live chat when the message is in it, not a read-only chat a switch
// retired.

// routes is the newest-first list of each session's workers, kept from
// the catalog for the searches.
type routes struct {
	mu    sync.RWMutex
	bySID map[string][]string
}

// set replaces the lists with those of ss.
func (r *routes) set(ss []worker.Session) {
	m := make(map[string][]string, len(ss))
	for _, s := range ss {
		ws := slices.Clone(s.Workers)
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
		m[s.ID] = ids
	}
	r.mu.Lock()
	r.bySID = m
	r.mu.Unlock()
}

func (r *routes) of(sid string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.bySID[sid]
}

// route returns the newest worker of session sid whose log holds the
// message uuid, else wid (the copy that was indexed).
func (x *Indexer) route(sid, uuid, wid string) string {
	if uuid == "" {
		return wid
	}
	for _, w := range x.routes.of(sid) {
		if w == wid {
			return wid // no newer worker holds it
		}
		if seq, err := x.store.SeqOf(w, uuid); err == nil && seq > 0 {
			return w
		}
	}
	return wid
}
