package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/internal/childproc"
)

// config is the command line and environment of API.md "Running".
type config struct {
	addr           string
	dataDir        string
	token          string
	tokenFlag      bool // the token came from --token, so it shows in the process list
	publicURL      string
	claude         string
	codex          string
	allowedOrigins []string
	worktreeDir    string
	stallAfter     time.Duration // a turn silent this long is stalled; 0: never
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// durationEnv is the duration in the environment variable key, or def.
func durationEnv(key string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s: not a duration like 5m or 90s: %q", key, v)
	}
	return d, nil
}

func defaultDataDir() string {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "agentdesk")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".", "agentdesk-data")
	}
	return filepath.Join(home, ".local", "share", "agentdesk")
}

func parseConfig(args []string) (config, error) {
	var c config
	var origins string
	fs := flag.NewFlagSet("agentdesk", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", envOr("AGENTDESK_ADDR", "127.0.0.1:7878"), "listen address (env AGENTDESK_ADDR)")
	fs.StringVar(&c.dataDir, "data-dir", envOr("AGENTDESK_DATA_DIR", defaultDataDir()), "where agentdesk.db and the token live (env AGENTDESK_DATA_DIR)")
	fs.StringVar(&c.token, "token", os.Getenv("AGENTDESK_TOKEN"), "access token; prefer env AGENTDESK_TOKEN or the token file: other users can read a flag in the process list (default: <data-dir>/token, created at first start)")
	fs.StringVar(&c.claude, "claude", os.Getenv("AGENTDESK_CLAUDE"), "path of the claude CLI (env AGENTDESK_CLAUDE; default: claude on PATH, else ./node_modules/.bin/claude)")
	fs.StringVar(&c.codex, "codex", os.Getenv("AGENTDESK_CODEX"), "path of the codex CLI, for Codex chats (env AGENTDESK_CODEX; default: codex on PATH, else ./node_modules/.bin/codex)")
	fs.StringVar(&c.publicURL, "public-url", os.Getenv("AGENTDESK_PUBLIC_URL"), "the URL users open when a TLS proxy is in front, e.g. https://desk.example.com: its origin is allowed, an https one makes the login cookie Secure, and the start-up line uses it (env AGENTDESK_PUBLIC_URL)")
	fs.StringVar(&origins, "allowed-origins", os.Getenv("AGENTDESK_ALLOWED_ORIGINS"), "comma-separated extra origins allowed besides same-origin, e.g. https://desk.example.com")
	fs.StringVar(&c.worktreeDir, "worktree-dir", os.Getenv("AGENTDESK_WORKTREE_DIR"), "where sessions made from a repository get their git worktrees (env AGENTDESK_WORKTREE_DIR; default: beside the repository)")
	stall, err := durationEnv("AGENTDESK_STALL_AFTER", 5*time.Minute)
	if err != nil {
		return c, err
	}
	fs.DurationVar(&c.stallAfter, "stall-after", stall, "a running turn with no output from the CLI and no CPU used by its tools for this long is shown as stalled; 0 disables the watchdog (env AGENTDESK_STALL_AFTER)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.stallAfter < 0 {
		return c, fmt.Errorf("--stall-after must not be negative, got %s", c.stallAfter)
	}
	fs.Visit(func(f *flag.Flag) { c.tokenFlag = c.tokenFlag || f.Name == "token" })
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q; see --help", fs.Arg(0))
	}
	if origins != "" {
		c.allowedOrigins = strings.Split(origins, ",")
	}
	if c.claude == "" {
		c.claude = claude.Find()
	}
	if c.codex == "" {
		c.codex = codex.Find()
	}
	return c, nil
}

// loadToken returns the configured token, else the one in <dataDir>/token,
// creating it (128 bits, hex, mode 0600) at first start.
func loadToken(c config) (string, error) {
	if c.token != "" {
		return c.token, nil
	}
	path := filepath.Join(c.dataDir, "token")
	b, err := os.ReadFile(path)
	if err == nil {
		if t := strings.TrimSpace(string(b)); t != "" {
			return t, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read token file: %w", err)
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("make token: %w", err)
	}
	t := hex.EncodeToString(raw)
	if err := os.WriteFile(path, []byte(t+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write token file: %w", err)
	}
	return t, nil
}

// childEnv is the environment children inherit: the server's own, minus
// agentdesk's settings (the token above all).
func childEnv() []string { return childproc.Env(os.Environ(), "") }
