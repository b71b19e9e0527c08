// Package server is agentdesk's HTTP and WebSocket edge: routes, auth,
// origin checks, the REST API, the sockets and the embedded SPA. It turns
// requests into calls on the domain (the worker.Manager and the services
// of worker/...) and streams worker frames to sockets; it owns no
// background loop and no file. Echo stays inside this package.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/adopt"
	"github.com/agentdesk/agentdesk/worker/attention"
	"github.com/agentdesk/agentdesk/worker/find"
	"github.com/agentdesk/agentdesk/worker/gitops"
	"github.com/agentdesk/agentdesk/worker/notify"
	"github.com/agentdesk/agentdesk/worker/review"
	"github.com/agentdesk/agentdesk/worker/tools"
)

// Version is reported by /api/health.
var Version = "0.1.0"

// Options configures a Server.
type Options struct {
	Token    string
	Frontend fs.FS // the built SPA (frontend/dist)
	// HighlightCSS is the stylesheet of the code blocks in the HTML the
	// domain renders from markdown, served at /highlight.css. Called on
	// the first request for it: building it loads the highlighter, which a
	// server that shows no markdown need not pay for at start.
	HighlightCSS   func() string
	AllowedOrigins []string // extra origins besides same-origin
	// PublicURL is the address users open when a TLS proxy is in front,
	// e.g. https://desk.example.com. Its origin is allowed, and when it is
	// https the login cookie is marked Secure.
	PublicURL string
	// Loopback enables the Host check against DNS rebinding; set it when
	// the listen address is a loopback address.
	Loopback bool
	Limits   Limits
	Log      *slog.Logger

	// The domain the API calls: the manager of the sessions and workers,
	// and the services built on it where main wires them.
	Manager   *worker.Manager
	Settings  *worker.AgentSettings
	Repos     *worker.Repos
	Usage     *worker.Usage
	Files     *worker.FileList
	Trees     *worker.Trees // the Files tab's view of a session's folder; nil: over Manager
	Review    *review.Service
	Git       *gitops.Service
	Attention *attention.List
	Adopt     *adopt.Service
	Search    *find.Finder    // nil: GET /api/search answers 503
	Push      *notify.Service // nil: push is off
	Tools     *tools.Service  // nil: the tool bridge is off
	MCP       *worker.MCPServers
	// SandboxLevels are the sandbox levels and whether each runs here, as
	// found at start-up (GET /api/capabilities); nil: off only.
	SandboxLevels []worker.SandboxLevel
}

// Server serves the API, sockets and SPA. Create it with New.
type Server struct {
	mgr            *worker.Manager
	token          string
	allowedOrigins []*url.URL
	loopback       bool
	secureCookie   bool // the public URL is https
	limits         Limits
	log            *slog.Logger
	spa            *spa
	highlight      func() []byte                       // /highlight.css, built on first request
	gz             func(http.Handler) http.HandlerFunc // compress.go
	att            *attention.List                     // the "needs you" list, /ws/app's second frame
	push           *notify.Service                     // nil: push is off; which session each /ws/app tab shows

	e      *echo.Echo
	ctx    context.Context // cancelled first on shutdown, so sockets end
	cancel context.CancelFunc
	socks  sync.WaitGroup // every WebSocket handler
}

// New builds the server and its routes.
func New(o Options) (*Server, error) {
	origins, err := parseOrigins(o.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	public, err := parsePublicURL(o.PublicURL)
	if err != nil {
		return nil, err
	}
	if public != nil {
		origins = append(origins, public)
	}
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		mgr: o.Manager, token: o.Token, allowedOrigins: origins, loopback: o.Loopback,
		secureCookie: public != nil && public.Scheme == "https", limits: o.Limits.withDefaults(),
		log: log, spa: newSPA(o.Frontend), ctx: ctx, cancel: cancel,
		att: o.Attention, push: o.Push, highlight: lazyCSS(o.HighlightCSS), gz: newCompressor(),
	}
	s.e = echo.New()
	s.e.HideBanner, s.e.HidePort = true, true
	s.e.HTTPErrorHandler = s.errorHandler
	s.e.Server.BaseContext = func(net.Listener) context.Context { return ctx }
	s.e.Server.ConnContext = connContext
	s.e.Server.ReadHeaderTimeout = s.limits.HeaderTimeout
	s.e.Server.IdleTimeout = s.limits.IdleTimeout
	s.routes(o)
	return s, nil
}

// Handler returns the server's http.Handler (for tests and custom listeners).
func (s *Server) Handler() http.Handler { return s.e }

func (s *Server) routes(o Options) {
	e := s.e
	e.Use(s.bodyDeadline, s.securityHeaders, s.compress, s.originGuard, s.requireAuth)
	e.GET("/api/health", s.health)
	e.POST("/api/login", s.login)

	api := e.Group("/api")
	sessionsAPI{o.Manager}.routes(api)
	workersAPI{s}.routes(api)
	capabilitiesAPI{s}.routes(api)
	serverCapsAPI{o.SandboxLevels}.routes(api)
	exportAPI{s}.routes(api)
	adoptAPI{o.Adopt}.routes(api)
	gitAPI{o.Git}.routes(api)
	s.attachRoutes(api)
	queueAPI{s}.routes(api)
	usageAPI{o.Usage}.routes(api)
	filesAPI{o.Files}.routes(api)
	trees := o.Trees
	if trees == nil {
		trees = worker.NewTrees(o.Manager)
	}
	treeAPI{s: s, trees: trees}.routes(api)
	settingsAPI{o.Settings}.routes(api)
	reviewAPI{o.Review}.routes(api)
	worktreesAPI{mgr: o.Manager, git: o.Git, repos: o.Repos}.routes(api)
	attentionAPI{s: s, att: o.Attention}.routes(api)
	searchAPI{mgr: o.Manager, find: o.Search}.routes(api)
	pushAPI{o.Push}.routes(api)
	toolsAPI{s: s, tools: o.Tools}.routes(e, api)
	mcpAPI{o.MCP}.routes(api)
	api.Any("/*", s.apiNotFound)

	e.GET("/ws/app", s.appSocket)
	e.GET("/ws/sessions/:sid/workers/:wid", s.workerSocket)
	e.Any("/ws/*", s.apiNotFound)

	e.GET("/highlight.css", s.highlightCSS)
	e.GET("/*", s.serveSPA)
	e.HEAD("/*", s.serveSPA)
}

func (s *Server) apiNotFound(c echo.Context) error {
	return newError(http.StatusNotFound, wire.CodeNotFound, "no such endpoint: "+c.Request().Method+" "+c.Request().URL.Path)
}

// lazyCSS is css's answer, asked once, on the first call; none is an
// empty stylesheet.
func lazyCSS(css func() string) func() []byte {
	return sync.OnceValue(func() []byte {
		if css == nil {
			return nil
		}
		return []byte(css())
	})
}

// highlightCSS serves the code-highlighting styles that go with the HTML
// the server renders from markdown.
func (s *Server) highlightCSS(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, "text/css; charset=utf-8", s.highlight())
}

func (s *Server) health(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok", "version": Version})
}

// securityHeaders keeps the page from being framed or sniffed and limits
// what it may load to our own origin.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		return next(c)
	}
}

// Serve serves on l until Shutdown, capping the connections without the
// token (Limits.MaxUnauthConns). It returns nil after a clean shutdown.
func (s *Server) Serve(l net.Listener) error {
	s.e.Listener = l
	cl := &connLimiter{Listener: l, max: s.limits.MaxUnauthConns}
	if err := s.e.Server.Serve(cl); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// Shutdown ends every socket, stops accepting requests and waits for the
// ones in flight and for every socket handler.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancel()
	err := s.e.Server.Shutdown(ctx)
	done := make(chan struct{})
	go func() {
		s.socks.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return errors.Join(err, fmt.Errorf("wait for sockets: %w", ctx.Err()))
	}
	return err
}
