package agenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/childproc"
)

// Call is one call the engine made on a Conn.
type Call struct {
	Op       string // the Conn method: "Send", "Interrupt", "Answer", "Apply", "Signal", "Close"
	Input    agent.Input
	ID       string       // Answer: the request
	Answer   agent.Answer // Answer
	From, To agent.Settings
	Signal   syscall.Signal
}

// Conn is a fake running agent. Safe for concurrent use.
type Conn struct {
	// Opts are the options it was started with.
	Opts agent.Options

	ignoreInterrupt, ignoreTerm bool
	caps                        agent.Capabilities

	events chan []agent.Event
	quit   chan struct{} // closed when the agent exits: Emit gives up
	done   chan struct{}
	emitMu sync.RWMutex // Emit holds it to send; the exit takes it to close events

	mu      sync.Mutex
	calls   []Call
	changed chan struct{} // closed and replaced on every call
	exited  bool
	code    int
	signal  string
	refuse  error // what Apply returns
}

var _ agent.Conn = (*Conn)(nil)

func newConn(o agent.Options, d *Driver) *Conn {
	return &Conn{
		Opts: o, ignoreInterrupt: d.IgnoreInterrupt, ignoreTerm: d.IgnoreTerm, caps: d.Caps,
		events: make(chan []agent.Event), quit: make(chan struct{}), done: make(chan struct{}),
		changed: make(chan struct{}),
	}
}

// Emit makes the agent say evs, as one batch, and returns once the
// engine took it (false when the agent exited first).
func (c *Conn) Emit(evs ...agent.Event) bool {
	c.emitMu.RLock()
	defer c.emitMu.RUnlock()
	select {
	case <-c.quit:
		return false
	default:
	}
	select {
	case c.events <- evs:
		return true
	case <-c.quit:
		return false
	}
}

// Message is a KindMessage event of type typ with a new uuid; fields are
// added to the message object.
func Message(typ string, fields map[string]any) agent.Event {
	m := map[string]any{"type": typ, "uuid": uuid.NewString()}
	for k, v := range fields {
		m[k] = v
	}
	raw, _ := json.Marshal(m)
	return agent.Event{Kind: agent.KindMessage, Type: typ, UUID: m["uuid"].(string), Raw: raw}
}

// Assistant is an assistant message with one text block.
func Assistant(text string) agent.Event {
	return Message("assistant", map[string]any{"message": map[string]any{
		"role": "assistant", "content": []map[string]any{{"type": "text", "text": text}},
	}})
}

// Result is the result that ends a turn.
func Result(text string) agent.Event {
	return Message("result", map[string]any{"subtype": "success", "result": text, "is_error": false})
}

// Delta is a streamed text delta; end marks the message's end.
func Delta(text string, end bool) agent.Event {
	typ := "content_block_delta"
	if end {
		typ = "message_stop"
	}
	raw, _ := json.Marshal(map[string]any{"type": "stream_event", "event": map[string]any{
		"type": typ, "delta": map[string]any{"type": "text_delta", "text": text}}})
	return agent.Event{Kind: agent.KindDelta, Raw: raw, EndsMessage: end}
}

// Reply answers a turn: an assistant message with text, then the result.
func (c *Conn) Reply(text string) bool { return c.Emit(Assistant(text), Result(text)) }

// Ask makes the agent ask r (its ID and Input filled in when empty) and
// returns it.
func (c *Conn) Ask(r agent.Request) agent.Request {
	if r.ID == "" {
		r.ID = uuid.NewString()
	}
	if len(r.Input) == 0 {
		r.Input = json.RawMessage(`{}`)
	}
	c.Emit(agent.Event{Kind: agent.KindRequest, Request: &r})
	return r
}

// Withdraw makes the agent withdraw its request id.
func (c *Conn) Withdraw(id string) bool {
	return c.Emit(agent.Event{Kind: agent.KindWithdrawn, RequestID: id})
}

// Exit ends the agent as if its process exited with code (or was killed
// by signal, when not "").
func (c *Conn) Exit(code int, signal string) {
	c.mu.Lock()
	if c.exited {
		c.mu.Unlock()
		return
	}
	c.exited, c.code, c.signal = true, code, signal
	c.mu.Unlock()
	close(c.quit) // an Emit in flight gives up
	c.emitMu.Lock()
	close(c.events)
	c.emitMu.Unlock()
	close(c.done)
}

// RefuseApply makes Apply return err (nil: accept again).
func (c *Conn) RefuseApply(err error) {
	c.mu.Lock()
	c.refuse = err
	c.mu.Unlock()
}

// Calls returns every call so far, in order.
func (c *Conn) Calls() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Call(nil), c.calls...)
}

// WaitCall waits until the engine made its n-th call (1 for the first) of
// op, and returns it.
func (c *Conn) WaitCall(t Fataler, op string, n int) Call {
	t.Helper()
	deadline := time.After(Wait)
	for {
		c.mu.Lock()
		seen := 0
		for _, call := range c.calls {
			if call.Op == op {
				if seen++; seen == n {
					c.mu.Unlock()
					return call
				}
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("agenttest: no %s call #%d; calls %+v", op, n, c.Calls())
			return Call{}
		}
	}
}

// record notes a call and reports whether the agent still runs.
func (c *Conn) record(call Call) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
	close(c.changed)
	c.changed = make(chan struct{})
	return !c.exited
}

func (c *Conn) Events() <-chan []agent.Event     { return c.events }
func (c *Conn) Capabilities() agent.Capabilities { return c.caps }
func (c *Conn) Done() <-chan struct{}            { return c.done }
func (c *Conn) Ident() childproc.Ident           { return childproc.Ident{Marker: c.Opts.Marker} }
func (c *Conn) Stderr() string                   { return "" }

func (c *Conn) ExitStatus() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code, c.signal
}

func (c *Conn) Send(in agent.Input) error {
	if !c.record(Call{Op: "Send", Input: in}) {
		return fmt.Errorf("send: %w", agent.ErrExited)
	}
	return nil
}

// Interrupt is acknowledged at once unless the driver ignores
// interrupts; ending the turn is the test's (Reply, Emit).
func (c *Conn) Interrupt(ctx context.Context) error {
	if !c.record(Call{Op: "Interrupt"}) {
		return fmt.Errorf("interrupt: %w", agent.ErrExited)
	}
	if !c.ignoreInterrupt {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return fmt.Errorf("interrupt: %w", agent.ErrExited)
	}
}

func (c *Conn) Answer(id string, a agent.Answer) error {
	if !c.record(Call{Op: "Answer", ID: id, Answer: a}) {
		return fmt.Errorf("answer: %w", agent.ErrExited)
	}
	return nil
}

func (c *Conn) Apply(ctx context.Context, from, to agent.Settings) error {
	if !c.record(Call{Op: "Apply", From: from, To: to}) {
		return fmt.Errorf("apply: %w", agent.ErrExited)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refuse
}

// Signal ends the agent on SIGKILL, and on SIGTERM unless the driver
// ignores it; signal 0 does nothing.
func (c *Conn) Signal(sig syscall.Signal) error {
	c.record(Call{Op: "Signal", Signal: sig})
	if sig == syscall.SIGKILL || sig == syscall.SIGTERM && !c.ignoreTerm {
		c.Exit(-1, signalName(sig))
	}
	return nil
}

// Close ends the agent with code 0.
func (c *Conn) Close(ctx context.Context) error {
	c.record(Call{Op: "Close"})
	c.Exit(0, "")
	return nil
}

func signalName(sig syscall.Signal) string {
	if sig == syscall.SIGKILL {
		return "SIGKILL"
	}
	return "SIGTERM"
}
