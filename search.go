package main

import (
	"log/slog"
	"path/filepath"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/find"
)

// openSearch is the search in <data>/search. Its index opens on first use
// (the first search or commit of messages), not at start. It is derived
// data: when it cannot be opened the server runs without search rather
// than not at all (find.ErrUnavailable).
func openSearch(dataDir string, store *persist.Store, mgr *worker.Manager, log *slog.Logger) *find.Finder {
	return find.New(filepath.Join(dataDir, "search"), store, mgr, log)
}
