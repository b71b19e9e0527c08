package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// conn is a running CLI as the engine sees it (agent.Conn). Its one
// goroutine turns the process's batches of lines into batches of events
// (events.go); it holds at most one batch the engine has not taken, so
// the CLI still waits on its full stdout while the engine is behind.
type conn struct {
	p      *Process
	caps   agent.Capabilities
	log    *slog.Logger
	host   *toolbridge.Host // agentdesk's SDK MCP server; nil without tools
	tools  agent.Tools
	events chan []agent.Event
	quit   chan struct{} // closed by Close: stop handing batches over
	cancel context.CancelFunc
	wg     sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

var (
	_ agent.Conn = (*conn)(nil)
	_ agent.MCP  = (*conn)(nil)
)

func newConn(p *Process, caps agent.Capabilities, cancel context.CancelFunc, log *slog.Logger, host *toolbridge.Host, tools agent.Tools) *conn {
	c := &conn{p: p, caps: caps, log: log, cancel: cancel, host: host, tools: tools,
		events: make(chan []agent.Event), quit: make(chan struct{})}
	c.wg.Go(c.translate)
	return c
}

// translate is the conn's goroutine: it ends when the CLI's stdout ended
// and every batch was taken, or when Close gives up on the engine.
func (c *conn) translate() {
	defer close(c.events)
	for lines := range c.p.Batches() {
		// A batch is handed over even when nothing of it is shown: it is
		// output all the same (the stall watchdog counts it).
		evs := make([]agent.Event, 0, len(lines))
		for _, l := range lines {
			evs = c.event(evs, l)
		}
		select {
		case c.events <- evs:
		case <-c.quit:
			return
		}
	}
}

func (c *conn) Events() <-chan []agent.Event     { return c.events }
func (c *conn) Capabilities() agent.Capabilities { return c.caps }
func (c *conn) Done() <-chan struct{}            { return c.p.Done() }
func (c *conn) ExitStatus() (int, string)        { return c.p.ExitStatus() }
func (c *conn) Ident() childproc.Ident           { return c.p.Ident() }
func (c *conn) Stderr() string                   { return c.p.Stderr() }
func (c *conn) Program() int                     { return c.p.Program() }
func (c *conn) Signal(sig syscall.Signal) error  { return c.p.SignalGroup(sig) }

// Send writes a user message with the engine's uuid; attachments go as
// content blocks after the text.
func (c *conn) Send(in agent.Input) error {
	var content any = in.Text
	if len(in.Files) > 0 {
		content = attach.Blocks(in.Text, in.Files)
	}
	return c.p.SendUserMessage(in.ID, content)
}

// Interrupt sends the interrupt control request and waits for its answer.
func (c *conn) Interrupt(ctx context.Context) error { return c.p.Interrupt(ctx) }

// allowAnswer and denyAnswer are can_use_tool's control responses
// (claude-cli.md §6).
type allowAnswer struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions []permUpdate    `json:"updatedPermissions,omitempty"`
}

type denyAnswer struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message"`
}

// Answer answers the can_use_tool request id.
func (c *conn) Answer(id string, a agent.Answer) error {
	if !a.Allow {
		return c.p.Respond(id, denyAnswer{"deny", a.Message})
	}
	updates, err := parseUpdates(true, a.Updates)
	if err != nil {
		return err
	}
	return c.p.Respond(id, allowAnswer{"allow", a.Input, updates})
}

// Apply sends set_model and set_permission_mode for what changed; when the
// mode is refused after the model changed, the model goes back.
func (c *conn) Apply(ctx context.Context, from, to agent.Settings) error {
	if to.Model != from.Model {
		if err := refused(c.p.SetModel(ctx, to.Model)); err != nil {
			return err
		}
	}
	if to.PermissionMode != from.PermissionMode {
		if err := refused(c.p.SetPermissionMode(ctx, to.PermissionMode)); err != nil {
			if to.Model != from.Model && from.Model != "" {
				_ = c.p.SetModel(context.WithoutCancel(ctx), from.Model)
			}
			return err
		}
	}
	return nil
}

// refused maps a control request's failure: the CLI's refusal is a
// conflict carrying its reason; an exit is agent.ErrExited.
func refused(err error) error {
	var ce *ControlError
	switch {
	case err == nil, errors.Is(err, ErrExited):
		return err
	case errors.As(err, &ce):
		return fmt.Errorf("claude refused the change: %s: %w", ce.Message, wire.ErrConflict)
	}
	return fmt.Errorf("change claude's settings: %w", err)
}

// Close ends the CLI (Process.Close), then the translation and the tool
// calls still in flight (their providers are told).
func (c *conn) Close(ctx context.Context) error {
	c.closeOnce.Do(func() {
		c.closeErr = c.p.Close(ctx)
		close(c.quit)
		c.wg.Wait()
		if c.host != nil {
			c.host.Close()
		}
		c.cancel()
	})
	return c.closeErr
}
