// Package server is agentdesk's HTTP and WebSocket edge: routes, auth,
// origin checks, the REST API, the sockets and the embedded SPA. It turns
// requests into calls on the worker.Manager and streams worker frames to
// sockets; Echo stays inside this package.
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

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/internal/search"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// Version is reported by /api/health.
var Version = "0.1.0"

// Options configures a Server.
type Options struct {
	Manager        *worker.Manager
	Token          string
	Frontend       fs.FS    // the built SPA (frontend/dist)
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
	// DataDir keeps the attention list's marks (attention.json) and the
	// Web Push keys and subscriptions (push.go); "" keeps the marks in
	// memory only and turns push off.
	DataDir string
	Search  *search.Indexer // nil: GET /api/search answers 503

	// PushClient sends Web Push requests; nil: one with a 10 s timeout.
	PushClient *http.Client
}

// Server serves the API, sockets and SPA. Create it with New.
type Server struct {
	mgr            *worker.Manager
	gitLocks       sync.Map // session id → *sync.Mutex (git_ops.go)
	token          string
	allowedOrigins []*url.URL
	loopback       bool
	secureCookie   bool // the public URL is https
	limits         Limits
	log            *slog.Logger
	spa            *spa
	att            *attention   // the "needs you" list (attention.go)
	push           *pushService // nil: push is off (push.go)
	views          *viewers     // which session each /ws/app tab shows
	search         *search.Indexer

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
	}
	s.att = newAttention(o.Manager, attentionPath(o.DataDir))
	s.views = newViewers()
	if o.Manager != nil && o.DataDir != "" {
		if s.push, err = newPushService(o.DataDir, pushSubject(public), o.PushClient, log); err != nil {
			cancel()
			return nil, err
		}
		s.att.onNew = s.pushItems
	}
	s.search = o.Search
	s.e = echo.New()
	s.e.HideBanner, s.e.HidePort = true, true
	s.e.HTTPErrorHandler = s.errorHandler
	s.e.Server.BaseContext = func(net.Listener) context.Context { return ctx }
	s.e.Server.ConnContext = connContext
	s.e.Server.ReadHeaderTimeout = s.limits.HeaderTimeout
	s.e.Server.IdleTimeout = s.limits.IdleTimeout
	s.routes()
	if o.Manager != nil {
		s.att.start(ctx) // ends with Shutdown
	}
	if s.push != nil {
		s.push.sender.Start(ctx) // ends with Shutdown
	}
	return s, nil
}

// Handler returns the server's http.Handler (for tests and custom listeners).
func (s *Server) Handler() http.Handler { return s.e }

func (s *Server) routes() {
	e := s.e
	e.Use(s.bodyDeadline, s.securityHeaders, s.originGuard, s.requireAuth)
	e.GET("/api/health", s.health)
	e.POST("/api/login", s.login)

	api := e.Group("/api")
	api.GET("/sessions", s.listSessions)
	api.POST("/sessions", s.createSession)
	api.GET("/sessions/:sid", s.getSession)
	api.PATCH("/sessions/:sid", s.renameSession)
	api.DELETE("/sessions/:sid", s.deleteSession)
	api.POST("/sessions/:sid/switch", s.switchAgent)
	api.POST("/sessions/:sid/workers", s.createWorker)
	api.GET("/sessions/:sid/workers/:wid", s.getWorker)
	api.DELETE("/sessions/:sid/workers/:wid", s.deleteWorker)
	api.POST("/sessions/:sid/workers/:wid/restart", s.restartWorker)
	api.POST("/sessions/:sid/workers/:wid/input", s.workerInput)
	api.POST("/sessions/:sid/workers/:wid/cancel", s.workerCancel)
	api.GET("/sessions/:sid/workers/:wid/messages", s.workerMessages)
	api.GET("/sessions/:sid/workers/:wid/diff", s.workerDiff)
	api.GET("/git", s.inspectRepo)
	s.capabilityRoutes(api)
	s.exportRoutes(api)
	s.claudeSessionRoutes(api)
	s.gitRoutes(api)
	s.attachRoutes(api)
	s.queueRoutes(api)
	s.usageRoutes(api)
	s.fileRoutes(api)
	s.fsRoutes(api)
	s.settingsRoutes(api)
	s.commentRoutes(api)
	s.worktreeRoutes(api)
	s.attentionRoutes(api)
	s.searchRoutes(api)
	s.pushRoutes(api)
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

// highlightCSS serves the code-highlighting styles that go with the HTML
// the server renders from markdown.
func (s *Server) highlightCSS(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, "text/css; charset=utf-8", []byte(markdown.CSS()))
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
		s.att.wait()
		if s.push != nil {
			s.push.sender.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return errors.Join(err, fmt.Errorf("wait for sockets: %w", ctx.Err()))
	}
	return err
}
