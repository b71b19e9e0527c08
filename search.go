package main

import (
	"log/slog"
	"path/filepath"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/find"
)

// openSearch starts the search index in <data>/search, woken by every
// commit of messages. It is derived data: when it cannot be opened the
// server runs without search rather than not at all (nil).
func openSearch(dataDir string, store *persist.Store, mgr *worker.Manager, log *slog.Logger) *find.Finder {
	f, err := find.Open(filepath.Join(dataDir, "search"), store, mgr, log)
	if err != nil {
		log.Error("search is not available", "err", err)
		return nil
	}
	return f
}
