// Command agentdesk serves a browser workspace for coding agents: sessions
// with Claude Code as a structured chat or in a terminal, shells, and a
// live diff of the work tree. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/server"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/adopt"
	"github.com/agentdesk/agentdesk/worker/tools"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "agentdesk:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cfg, err := parseConfig(args)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if cfg.tokenFlag {
		log.Warn("--token shows the token in the process list, where every local user can read it; pass it in AGENTDESK_TOKEN or the data dir's token file instead")
	}
	if _, err := claude.Resolve(cfg.claude); err != nil {
		log.Warn("the claude CLI cannot be run: chat and terminal agents will fail until it is installed (npm install -g @anthropic-ai/claude-code) or --claude names it", "err", err)
	}
	if _, err := codex.Resolve(cfg.codex); err != nil {
		log.Warn("the codex CLI cannot be run: Codex chats will fail until it is installed (npm install -g @openai/codex) or --codex names it", "err", err)
	}
	if err := os.MkdirAll(cfg.dataDir, 0o700); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	if err := privateDataDir(cfg.dataDir, log); err != nil {
		return err
	}
	store, err := persist.Open(filepath.Join(cfg.dataDir, "agentdesk.db"), nil)
	if errors.Is(err, persist.ErrLocked) {
		return fmt.Errorf("another agentdesk is already running with data dir %s; stop it or pass a different --data-dir", cfg.dataDir)
	}
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer store.Close()
	token, err := loadToken(cfg)
	if err != nil {
		return err
	}

	// The tool bridge's registry exists before the manager: the chats'
	// agents call it. Its sessions and push sender come with the domain.
	bridge := tools.New(tools.Options{Log: log})
	wcfg := worker.Config{ClaudePath: cfg.claude, ChildEnv: childEnv(), WorktreeDir: cfg.worktreeDir, StallAfter: cfg.stallAfter, Tools: bridge.Registry()}
	boxes := sandboxOptions(context.Background(), cfg.dataDir, wcfg, cfg.codex, log)
	codexHomes := filepath.Join(cfg.dataDir, "codex") // a CODEX_HOME per session (kinds.go)
	mgr := worker.NewManager(worker.Options{
		Store:       store,
		Config:      wcfg,
		Log:         log,
		Factories:   factories(agentPaths{claude: cfg.claude, codex: cfg.codex, codexHomes: codexHomes, codexSeed: codex.UserHome(wcfg.ChildEnv)}),
		Validators:  validators(),
		KillGroup:   pty.KillSession,
		Launcher:    launch.Local{}, // every child of a session that is not sandboxed runs here
		Adoptable:   adopt.Check(wcfg),
		Sandbox:     boxes,
		SessionDirs: []string{codexHomes},
	})
	ctx := context.Background()
	if err := mgr.Load(ctx); err != nil {
		return err
	}
	dom, err := openDomain(cfg, store, mgr, bridge, log)
	if err != nil {
		_ = mgr.Close(ctx)
		return err
	}
	defer dom.close() // before the store closes (defers run last first)
	l, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		_ = mgr.Close(ctx)
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	loopback := isLoopback(l.Addr())
	o := dom.options()
	o.Token, o.Frontend, o.AllowedOrigins, o.PublicURL, o.Loopback, o.Log = token, frontendFS(), cfg.allowedOrigins, cfg.publicURL, loopback, log
	o.Limits = server.Limits{MaxUnauthConns: unauthConnCap()}
	o.SandboxLevels = boxes.Levels()
	srv, err := server.New(o)
	if err != nil {
		l.Close()
		_ = mgr.Close(ctx)
		return err
	}
	if !loopback {
		log.Warn("listening on a non-loopback address: anyone who can reach it and has the token controls this machine; put TLS in front (see SECURITY notes in README)", "addr", l.Addr().String())
	}
	// Signals are caught before the URL is printed: whoever reads the line
	// may stop the server at once.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// Start-up's garbage (the init of every linked package) goes back to the system now
	// rather than when the scavenger gets to it: an idle server stays small.
	debug.FreeOSMemory()
	fmt.Printf("agentdesk is running: %s\n", openURL(l.Addr(), cfg.publicURL, token))
	return serveUntilSignal(srv, l, mgr, sigs, log)
}

// serveUntilSignal serves until SIGINT/SIGTERM or a serve error, then shuts
// down in order: sockets and HTTP, then workers and their children. The
// database is closed by run's defer.
func serveUntilSignal(srv *server.Server, l net.Listener, mgr *worker.Manager, sigs <-chan os.Signal, log *slog.Logger) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()

	var serveErr error
	select {
	case sig := <-sigs:
		log.Info("shutting down", "signal", sig.String())
	case serveErr = <-served:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		log.Error("http shutdown", "err", err)
	}
	if serveErr == nil {
		serveErr = <-served
	}
	if err := mgr.Close(ctx); err != nil {
		log.Error("stop workers", "err", err)
	}
	return serveErr
}

func isLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// openURL is the address printed at start: the public URL when a proxy is
// in front, else the listen address.
func openURL(a net.Addr, publicURL, token string) string {
	if publicURL != "" {
		return strings.TrimSuffix(publicURL, "/") + "/?token=" + token
	}
	host := a.String()
	if ta, ok := a.(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		host = net.JoinHostPort("127.0.0.1", fmt.Sprint(ta.Port))
	}
	return fmt.Sprintf("http://%s/?token=%s", host, token)
}
