package main

import (
	"log/slog"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/server"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/find"
	"github.com/agentdesk/agentdesk/worker/gitops"
	"github.com/agentdesk/agentdesk/worker/review"
)

// domain is the domain's services around the manager, which the edge
// calls: each is built here on the manager and the store; those that run
// goroutines are started here and stopped by close, before the manager
// and the store close.
type domain struct {
	mgr    *worker.Manager
	store  *persist.Store
	finder *find.Finder // nil: search is not available
}

func openDomain(cfg config, store *persist.Store, mgr *worker.Manager, log *slog.Logger) *domain {
	return &domain{mgr: mgr, store: store, finder: openSearch(cfg.dataDir, store, mgr, log)}
}

// options are the server's options that name the domain.
func (d *domain) options() server.Options {
	return server.Options{
		Manager:  d.mgr,
		Settings: worker.NewAgentSettings(d.mgr),
		Repos:    worker.NewRepos(d.store),
		Usage:    worker.NewUsage(d.mgr),
		Review:   review.New(d.mgr, d.store),
		Git:      gitops.New(d.mgr),
		Search:   d.finder,
	}
}

// close stops the services' goroutines.
func (d *domain) close() {
	if d.finder != nil {
		_ = d.finder.Close()
	}
}
