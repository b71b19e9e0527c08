package claude

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// initTimeout bounds the CLI's answer to initialize (about 0.3 s seen).
const initTimeout = 60 * time.Second

// closeTimeout bounds closing a CLI that failed at start-up.
const closeTimeout = 10 * time.Second

// Config is what every start of the driver shares.
type Config struct {
	// Path is the CLI; "" means claude on the server's PATH.
	Path string
	// ConfigDir is CLAUDE_CONFIG_DIR for every CLI ("" leaves the
	// environment's, or the CLI's default).
	ConfigDir string
}

// Driver is the chat engine's driver of the claude CLI: each start is a
// long-lived stream-json child (Args), spoken to through the control
// protocol. Safe for concurrent use.
type Driver struct{ cfg Config }

// The contract, and the optional abilities the engine finds.
var (
	_ agent.Driver  = (*Driver)(nil)
	_ agent.Updater = (*Driver)(nil)
	_ agent.Records = (*Driver)(nil)
	_ agent.History = (*Driver)(nil)
)

// NewDriver returns the driver for c.
func NewDriver(c Config) *Driver { return &Driver{cfg: c} }

// Start runs the CLI for o and waits for its initialize answer. When the
// CLI says the conversation does not exist (--resume) or exists already
// (--session-id), it starts again the other way: agentdesk's record and
// the CLI's files may disagree (a conversation that never got a first
// message, or one another worker created), and the CLI's files win.
func (d *Driver) Start(ctx context.Context, o agent.Options) (agent.Conn, error) {
	log := logOf(o)
	c, err := d.start(ctx, o, o.Resume)
	if err != nil && retryOther(err) && ctx.Err() == nil {
		log.Info("claude start: retrying", "resume", !o.Resume, "err", err)
		c, err = d.start(ctx, o, !o.Resume)
	}
	if err != nil {
		return nil, startFailure(err)
	}
	return c, nil
}

// start is one try of Start.
func (d *Driver) start(ctx context.Context, o agent.Options, resume bool) (*conn, error) {
	// The process outlives ctx, which bounds the start only; Close ends it.
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p, err := StartWith(pctx, o.Launcher, d.options(o, resume))
	if err != nil {
		cancel()
		return nil, err
	}
	host := newHost(p, o)
	ictx, icancel := context.WithTimeout(ctx, initTimeout)
	raw, err := initialize(ictx, p, host)
	icancel()
	if err != nil {
		closeQuietly(p)
		if host != nil {
			host.Close()
		}
		cancel()
		return nil, &startError{err: fmt.Errorf("initialize claude: %w", err), stderr: p.Stderr()}
	}
	caps, err := parseCapabilities(raw)
	if err != nil {
		logOf(o).Warn("claude capabilities", "err", err)
	}
	return newConn(p, caps, cancel, logOf(o), host, o.Tools), nil
}

// options are the CLI's options for o.
func (d *Driver) options(o agent.Options, resume bool) Options {
	return Options{
		Path:           d.cfg.Path,
		Dir:            o.Dir,
		Env:            ChildEnv(o.Env, d.cfg.ConfigDir),
		Marker:         o.Marker,
		SessionID:      o.Conversation,
		Resume:         resume,
		Model:          o.Settings.Model,
		PermissionMode: o.Settings.PermissionMode,
		AllowedTools:   o.AllowedTools,
		AllowBypass:    o.AllowBypass,
		Limits:         limits(o, resume),
	}
}

// startError is a CLI that ran but failed before answering initialize.
type startError struct {
	err    error
	stderr string
}

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// retryOther reports whether a start failed only because --resume or
// --session-id was the wrong choice.
func retryOther(err error) bool {
	var se *startError
	if !errors.As(err, &se) {
		return false
	}
	return strings.Contains(se.stderr, "No conversation found") ||
		strings.Contains(se.stderr, "is already in use")
}

// startFailure is the error a person reads when the CLI did not start:
// ErrNotFound's own text, or why the CLI exited with the last lines it
// wrote.
func startFailure(err error) error {
	if errors.Is(err, ErrNotFound) {
		return err
	}
	var se *startError
	if errors.As(err, &se) {
		msg := "claude exited at start-up: " + err.Error()
		if !strings.Contains(msg, tailLines(se.stderr, 1)) {
			return fmt.Errorf("claude exited at start-up: %w: %s", err, tailLines(se.stderr, 5))
		}
	}
	return fmt.Errorf("claude exited at start-up: %w", err)
}

func closeQuietly(p *Process) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	_ = p.Close(ctx)
}

// discardLog is the log of a start whose Options have none.
var discardLog = slog.New(slog.DiscardHandler)

func logOf(o agent.Options) *slog.Logger {
	if o.Log == nil {
		return discardLog
	}
	return o.Log
}

// tailLines returns the last n lines of s, trimmed, joined by newlines.
func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
