package search

import (
	"slices"
	"sync"
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

// set replaces the lists with those of ss (each session's workers come
// newest first).
func (r *routes) set(ss []Session) {
	m := make(map[string][]string, len(ss))
	for _, s := range ss {
		m[s.ID] = slices.Clone(s.Workers)
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
