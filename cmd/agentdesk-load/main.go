// Command agentdesk-load drives a running agentdesk over loopback and prints
// throughput, latency and memory figures for docs/performance.md. Every loop
// is bounded by a count and by --duration; the tool never talks to a
// non-loopback address.
//
//	agentdesk-load --url 'http://127.0.0.1:7878/?token=…' --scenario sdk-fanout --tabs 1,10,100
//
// Scenarios: sdk-fanout, catchup, pty, sessions, echo, big, upload, adopt, turn (see
// each file; upload and adopt in memory.go), term (term.go: side by side with other
// terminal servers, see bench/peers.sh). The server
// must run with --claude pointing at internal/testkit/fakeclaude and, for sdk-fanout
// and catchup, FAKECLAUDE_FLOOD=<n> in its environment (scripts/bench-load.sh
// does both); for big, FAKECLAUDE_BIG=<n>x<bytes>. With --agent codex, sdk-fanout
// and catchup drive a Codex chat: the server's Codex must use the fake Responses
// API with FAKEOPENAI_FLOOD=<n> (AGENT=codex scripts/bench-load.sh does that).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrNotLoopback is returned for a --url whose host is not a loopback address.
var ErrNotLoopback = errors.New("not a loopback address")

type config struct {
	base     *url.URL // scheme://host, no path or query
	token    string
	scenario string
	agent    string // the session agent of sdk-fanout and catchup: sdk (Claude) or codex
	tabs     []int
	messages []int
	sessions []int
	repeat   int
	pid      int
	ptyBytes int
	duration time.Duration
	// sessions scenario
	terminals, parallel int
	keep                bool
	// upload and adopt scenarios
	uploadBytes            int
	adoptLines, adoptBytes int
	claudeConfig           string
	// term scenario: the peers' host:port and pids
	gotty, agentConsole       string
	gottyPID, agentConsolePID int
	// another agentdesk build in the same rounds (term), named agentdesk-base
	baseURL          *url.URL
	baseToken        string
	basePID          int
	rounds, termTabs int
	echoKeys         int
	sandbox          string // the sessions' sandbox level (pty, turn)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "agentdesk-load:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cfg, err := parseFlags(args)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.duration)
	defer cancel()
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	c := newClient(cfg.base, cfg.token)
	c.sandbox = cfg.sandbox
	switch cfg.scenario {
	case "sdk-fanout":
		return runFanout(ctx, c, cfg)
	case "catchup":
		return runCatchup(ctx, c, cfg)
	case "pty":
		return runPTY(ctx, c, cfg)
	case "turn":
		return runTurn(ctx, c, cfg)
	case "sessions":
		return runSessions(ctx, c, cfg)
	case "echo":
		return runEcho(ctx, c, cfg)
	case "big":
		return runBig(ctx, c, cfg)
	case "upload":
		return runUpload(ctx, c, cfg)
	case "adopt":
		return runAdopt(ctx, c, cfg)
	case "term":
		return runTerm(ctx, c, cfg)
	}
	return fmt.Errorf("unknown --scenario %q (sdk-fanout, catchup, pty, sessions, echo, big, upload, adopt, turn, term)", cfg.scenario)
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("agentdesk-load", flag.ContinueOnError)
	rawURL := fs.String("url", "", "agentdesk start-up URL, with ?token=")
	scenario := fs.String("scenario", "", "sdk-fanout | catchup | pty | sessions | echo | big | upload | adopt | turn | term")
	agent := fs.String("agent", "sdk", "the chat's agent for sdk-fanout and catchup: sdk (Claude) or codex")
	tabs := fs.String("tabs", "1,10,100", "tab counts (sdk-fanout, pty; big uses the first)")
	msgs := fs.String("messages", "10000,100000", "stored message counts (catchup)")
	sess := fs.String("sessions", "10,100,1000", "cumulative session counts (sessions)")
	repeat := fs.Int("repeat", 5, "repetitions per size (catchup), sessions (turn); the median is reported")
	pid := fs.Int("pid", 0, "agentdesk's pid, to read its RSS from /proc")
	ptyBytes := fs.Int("pty-bytes", 100_000_000, "bytes the terminal prints (pty)")
	dur := fs.Duration("duration", 10*time.Minute, "cap on the whole run")
	terminals := fs.Int("terminals", 2, "terminal workers per session (sessions)")
	parallel := fs.Int("parallel", 1, "requests in flight: creating sessions (sessions), messages with attachments (upload)")
	keep := fs.Bool("keep", false, "leave the sessions in place at the end (sessions, sdk-fanout)")
	uploadBytes := fs.Int("upload-bytes", 30<<20, "attachment bytes per message, decoded (upload)")
	adoptLines := fs.Int("adopt-lines", 4, "lines of the adopted session file (adopt)")
	adoptBytes := fs.Int("adopt-bytes", 30_000_000, "bytes of text per line (adopt)")
	claudeConfig := fs.String("claude-config", "", "the server's claude config directory, where adopt writes its session file")
	gotty := fs.String("gotty", "", "gotty's 127.0.0.1:PORT, to compare with (term)")
	gottyPID := fs.Int("gotty-pid", 0, "gotty's pid (term)")
	agentConsole := fs.String("agent-console", "", "agent-console's 127.0.0.1:PORT, to compare with (term)")
	agentConsolePID := fs.Int("agent-console-pid", 0, "agent-console's server pid (term)")
	baseURL := fs.String("base-url", "", "another agentdesk build's start-up URL, measured in the same rounds as agentdesk-base (term)")
	basePID := fs.Int("base-pid", 0, "that build's pid (term)")
	rounds := fs.Int("rounds", 5, "interleaved rounds (term)")
	termTabs := fs.Int("term-tabs", 10, "tabs on one terminal in the shared-terminal run (term)")
	echoKeys := fs.Int("echo-keys", 1000, "keystrokes timed per echo run (term)")
	box := fs.String("sandbox", "", "the sessions' sandbox level: off, workspace or workspace+net (pty: terminal throughput inside a box)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	for _, h := range []struct{ name, v string }{{"gotty", *gotty}, {"agent-console", *agentConsole}} {
		if err := loopbackHost(h.name, h.v); err != nil {
			return config{}, err
		}
	}
	if *agent != "sdk" && *agent != "codex" {
		return config{}, fmt.Errorf("--agent %q: want sdk or codex", *agent)
	}
	cfg := config{scenario: *scenario, agent: *agent, repeat: max(*repeat, 1), pid: *pid, ptyBytes: *ptyBytes, duration: *dur,
		terminals: max(*terminals, 0), parallel: max(*parallel, 1), keep: *keep,
		uploadBytes: *uploadBytes, adoptLines: *adoptLines, adoptBytes: *adoptBytes, claudeConfig: *claudeConfig,
		gotty: *gotty, gottyPID: *gottyPID, agentConsole: *agentConsole, agentConsolePID: *agentConsolePID,
		rounds: max(*rounds, 1), termTabs: max(*termTabs, 1), echoKeys: max(*echoKeys, 1), basePID: *basePID, sandbox: *box}
	var err error
	if cfg.base, cfg.token, err = parseURL(*rawURL); err != nil {
		return config{}, err
	}
	if *baseURL != "" {
		if cfg.baseURL, cfg.baseToken, err = parseURL(*baseURL); err != nil {
			return config{}, fmt.Errorf("--base-url: %w", err)
		}
	}
	for _, l := range []struct {
		dst *[]int
		s   string
	}{{&cfg.tabs, *tabs}, {&cfg.messages, *msgs}, {&cfg.sessions, *sess}} {
		if *l.dst, err = parseInts(l.s); err != nil {
			return config{}, err
		}
	}
	return cfg, nil
}

// parseURL splits the start-up URL into its origin and token and refuses
// anything but loopback: the tool creates sessions and runs commands.
func parseURL(raw string) (*url.URL, string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, "", fmt.Errorf("parse --url %q: want http://127.0.0.1:PORT/?token=…", raw)
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, "", fmt.Errorf("--url host %q: %w", host, ErrNotLoopback)
	}
	if u.Scheme != "http" {
		return nil, "", fmt.Errorf("--url scheme %q: want http", u.Scheme)
	}
	token := u.Query().Get("token")
	if token == "" {
		return nil, "", errors.New("--url has no ?token=")
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, token, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("parse list %q: want positive integers", s)
		}
		out = append(out, n)
	}
	return out, nil
}
