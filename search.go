package main

import (
	"log/slog"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/search"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// openSearch starts the search index in <data>/search, woken by every
// commit of messages. It is derived data: when it cannot be opened the
// server runs without search rather than not at all.
func openSearch(dataDir string, store *persist.Store, mgr *worker.Manager, log *slog.Logger) *search.Indexer {
	idx, err := search.Open(filepath.Join(dataDir, "search"), store, mgr, log)
	if err != nil {
		log.Error("search is not available", "err", err)
		return nil
	}
	store.OnMessages(idx.Wake)
	return idx
}
