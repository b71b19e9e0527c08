package codex

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/childproc"
)

// callTimeout bounds a call the contract gives no context (Send): Codex
// answers turn/start and turn/steer at once, a wedged CLI never does.
const callTimeout = time.Minute

// conn is a Session seen as the engine's agent.Conn. One goroutine
// (forward) turns the Session's Outs into Events; Close ends it.
type conn struct {
	s        *Session
	events   chan []agent.Event
	quit     chan struct{}
	quitOnce sync.Once
	wg       sync.WaitGroup
}

func newConn(s *Session) *conn {
	c := &conn{s: s, events: make(chan []agent.Event), quit: make(chan struct{})}
	c.wg.Go(c.forward)
	return c
}

// forward passes the Session's batches on as Events until the Session's
// output ends; after Close it drops them.
func (c *conn) forward() {
	defer close(c.events)
	for b := range c.s.Out() {
		evs := events(b)
		if len(evs) == 0 {
			continue
		}
		select {
		case c.events <- evs:
		case <-c.quit:
			for range c.s.Out() { // Close ends the Session, which closes Out
			}
			return
		}
	}
}

// events translates one batch.
func events(b []Out) []agent.Event {
	evs := make([]agent.Event, 0, len(b))
	for _, o := range b {
		ev := agent.Event{Type: o.Type, UUID: o.UUID, Raw: o.Raw, EndsMessage: o.EndsMessage, RequestID: o.RequestID,
			NoProgress: o.Retrying, InForce: agent.Settings{Model: o.InForce.Model, PermissionMode: o.InForce.Policy}}
		switch o.Kind {
		case OutMessage:
			ev.Kind = agent.KindMessage
		case OutDelta:
			ev.Kind = agent.KindDelta
		case OutWithdrawn:
			ev.Kind = agent.KindWithdrawn
		case OutRequest:
			ev.Kind, ev.Request = agent.KindRequest, request(o.Request)
		default:
			continue
		}
		evs = append(evs, ev)
	}
	return evs
}

func request(r *Request) *agent.Request {
	if r == nil {
		return nil
	}
	kind := agent.RequestTool
	if r.Question {
		kind = agent.RequestQuestion
	}
	return &agent.Request{ID: r.ID, Kind: kind, Tool: r.Tool, Input: r.Input, Description: r.Description,
		ToolUseID: r.ToolUseID, Suggestions: r.Suggestions}
}

func (c *conn) Events() <-chan []agent.Event { return c.events }

// Conversation is the thread Codex runs (agent.Named).
func (c *conn) Conversation() string { return c.s.Thread() }

// Capabilities are Codex's models and the approval policy in force; Codex
// has no slash commands of its own for a client.
func (c *conn) Capabilities() agent.Capabilities {
	caps := agent.Capabilities{Models: []agent.Model{}, Commands: []agent.Command{}, PermissionMode: c.s.InForce().Policy}
	for _, m := range c.s.Models() {
		caps.Models = append(caps.Models, agent.Model{Value: m.Model, DisplayName: m.DisplayName, Description: m.Description, ResolvedModel: m.Model})
	}
	return caps
}

// Send starts a turn with in, or steers the running one with it.
func (c *conn) Send(in agent.Input) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return exited(c.s.Send(ctx, message(in)))
}

// message maps a user message to Codex's inputs: images as image inputs
// (data: URLs), text files as text after the typed text, each under its
// name; Codex takes no other document (a PDF is named, not sent).
func message(in agent.Input) Message {
	m := Message{ID: in.ID}
	parts := []string{}
	if in.Text != "" {
		parts = append(parts, in.Text)
	}
	for _, f := range in.Files {
		switch f.Kind {
		case attach.Image:
			m.Images = append(m.Images, "data:"+f.MediaType+";base64,"+base64.StdEncoding.EncodeToString(f.Data))
		case attach.Text:
			parts = append(parts, fmt.Sprintf("<file name=%q>\n%s\n</file>", f.Name, f.Data))
		default:
			parts = append(parts, fmt.Sprintf("(attached %s, %s: not sent, Codex takes images and text files only)", f.Name, f.MediaType))
		}
	}
	m.Text = strings.Join(parts, "\n\n")
	return m
}

func (c *conn) Interrupt(ctx context.Context) error { return exited(c.s.Interrupt(ctx)) }

// Answer answers request id: an allow with updates is "allow for this
// session" (Driver.Updates checked them), a question's answers come in
// the input.
func (c *conn) Answer(id string, a agent.Answer) error {
	ans := Answer{Allow: a.Allow, Session: a.Allow && len(a.Updates) > 0 && string(a.Updates) != "null" && string(a.Updates) != "[]"}
	if a.Allow {
		ans.Answers = decodeAnswers(a.Input)
	} else {
		ans.Message = a.Message
	}
	return exited(c.s.Answer(id, ans))
}

// Apply changes the model and approval policy for the next turn (Codex
// takes them with turn/start): nothing to refuse.
func (c *conn) Apply(_ context.Context, from, to agent.Settings) error {
	var s Settings
	if to.Model != from.Model {
		s.Model = to.Model
	}
	if to.PermissionMode != from.PermissionMode {
		s.Policy = to.PermissionMode
	}
	c.s.Apply(s)
	return nil
}

func (c *conn) Signal(sig syscall.Signal) error { return c.s.Signal(sig) }
func (c *conn) Done() <-chan struct{}           { return c.s.Done() }
func (c *conn) ExitStatus() (int, string)       { return c.s.ExitStatus() }
func (c *conn) Ident() childproc.Ident          { return c.s.Ident() }
func (c *conn) Stderr() string                  { return c.s.Stderr() }

// Close ends the CLI and waits for forward. Idempotent.
func (c *conn) Close(ctx context.Context) error {
	c.quitOnce.Do(func() { close(c.quit) })
	err := c.s.Close(ctx)
	c.wg.Wait()
	return err
}

// exited makes a call on a CLI that has exited match agent.ErrExited.
func exited(err error) error {
	if err != nil && errors.Is(err, ErrExited) && !errors.Is(err, agent.ErrExited) {
		return fmt.Errorf("%w: %w", agent.ErrExited, err)
	}
	return err
}
