package main

import (
	"log/slog"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/server"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/adopt"
	"github.com/agentdesk/agentdesk/worker/attention"
	"github.com/agentdesk/agentdesk/worker/find"
	"github.com/agentdesk/agentdesk/worker/gitops"
	"github.com/agentdesk/agentdesk/worker/notify"
	"github.com/agentdesk/agentdesk/worker/review"
	"github.com/agentdesk/agentdesk/worker/tools"
)

// domain is the domain's services around the manager, which the edge
// calls: each is built here on the manager and the store; those that run
// goroutines (the attention list, the push sender, the search indexer)
// are started here and stopped by close, before the store closes.
type domain struct {
	mgr    *worker.Manager
	store  *persist.Store
	att    *attention.List
	push   *notify.Service
	finder *find.Finder // nil: search is not available
	tools  *tools.Service
}

// openDomain builds and starts the services. Web Push keys that cannot be
// read stop the start: new ones would invalidate every subscription.
func openDomain(cfg config, store *persist.Store, mgr *worker.Manager, bridge *tools.Service, log *slog.Logger) (*domain, error) {
	push, err := notify.New(notify.Options{Dir: cfg.dataDir, PublicURL: cfg.publicURL, Log: log})
	if err != nil {
		return nil, err
	}
	d := &domain{mgr: mgr, store: store, push: push}
	d.att = attention.New(attention.Options{
		Manager: mgr, Store: store, Log: log, OnNew: push.Notify,
		Legacy: filepath.Join(cfg.dataDir, "attention.json"),
	})
	d.tools = bridge
	bridge.Attach(mgr, push)
	push.Start()
	d.att.Start()
	d.tools.Start()
	d.finder = openSearch(cfg.dataDir, store, mgr, log)
	return d, nil
}

// options are the server's options that name the domain.
func (d *domain) options() server.Options {
	return server.Options{
		Manager:      d.mgr,
		HighlightCSS: markdown.CSS, // built on the first request for it
		Settings:     worker.NewAgentSettings(d.mgr),
		Repos:        worker.NewRepos(d.store),
		Usage:        worker.NewUsage(d.mgr),
		Review:       review.New(d.mgr, d.store),
		Git:          gitops.New(d.mgr),
		Attention:    d.att,
		Push:         d.push,
		Adopt:        adopt.New(d.mgr),
		Files:        worker.NewFileList(d.mgr),
		Trees:        worker.NewTrees(d.mgr),
		Search:       d.finder,
		Tools:        d.tools,
		MCP:          worker.NewMCPServers(d.mgr),
	}
}

// close stops the services' goroutines.
func (d *domain) close() {
	d.att.Close()
	d.tools.Close()
	d.push.Close()
	if d.finder != nil {
		_ = d.finder.Close()
	}
}
