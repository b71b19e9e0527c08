package chat

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// The engine with the fake driver (agenttest): no process runs, the test
// plays the agent. These tests cover what the engine guarantees every
// driver: the journal, the queue, requests and their survival across a
// restart, the escalating Stop, a failed start.

func fakeHarness(t *testing.T, o harnessOptions) (*harness, *agenttest.Driver) {
	t.Helper()
	d, _ := o.driver.(*agenttest.Driver)
	if d == nil {
		d = agenttest.New()
		o.driver = d
	}
	return newHarness(t, o), d
}

func isStoredType(typ string) func(frame) bool {
	return func(f frame) bool { return f.stored() && f.Message.Type == typ }
}

// TestEngineTurn: a user message starts the agent with the conversation
// and the worker's settings, and reaches it with the uuid it is stored
// under; what the agent says is stored and shown in order; an exit ends
// the turn, and the next message starts a new agent that resumes the
// conversation.
func TestEngineTurn(t *testing.T) {
	h, d := fakeHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	c := d.Next(t)
	if o := c.Opts; o.Conversation != h.rt.conv || o.Resume || o.Dir != h.env.Session.Cwd {
		t.Errorf("start options %+v", o)
	}
	sent := c.WaitCall(t, "Send", 1)
	user := a.until(isStoredType("user"))
	if sent.Input.Text != "hello" || sent.Input.ID != user.Message.UUID {
		t.Errorf("sent %+v, stored as %s", sent.Input, user.Message.UUID)
	}
	c.Emit(agenttest.Delta("Hi", false), agenttest.Delta("", true))
	c.Reply("Hi there")
	a.until(isResult)
	if got := kinds(a.frames); !strings.Contains(got, "user") || strings.Index(got, "assistant") > strings.Index(got, "result") {
		t.Errorf("frames %s", got)
	}
	if h.rt.Activity() != worker.ActivityIdle {
		t.Errorf("activity %s after the result", h.rt.Activity())
	}
	sameFrames(t, storedOf(a.frames), storedFrames(t, h.store))

	c.Exit(1, "")
	if ex := a.until(isType("exit")); ex.ExitCode != 1 {
		t.Errorf("exit frame %s", ex.raw)
	}
	send(t, h, "again")
	c2 := d.Next(t)
	if !c2.Opts.Resume {
		t.Error("the second agent does not resume the conversation")
	}
	c2.WaitCall(t, "Send", 1)
}

// TestEngineQueue: a message submitted while a turn runs waits in the
// queue and is delivered, in the same commit that removes it, once the
// turn ends.
func TestEngineQueue(t *testing.T) {
	h, d := fakeHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "first")
	c := d.Next(t)
	c.WaitCall(t, "Send", 1)
	if err := h.rt.Submit(t.Context(), "second", ""); err != nil {
		t.Fatal(err)
	}
	if got := mustQueue(t, h); got != "second" {
		t.Fatalf("queue %q while the turn runs", got)
	}
	c.Reply("done")
	if call := c.WaitCall(t, "Send", 2); call.Input.Text != "second" {
		t.Errorf("delivered %+v", call.Input)
	}
	a.until(func(f frame) bool { return f.Type == "queue" && !strings.Contains(string(f.raw), "second") })
	if got := mustQueue(t, h); got != "" {
		t.Errorf("queue %q after the delivery", got)
	}
}

// TestEngineRequests: a request is shown and kept for tabs that attach
// later; an answer reaches the agent that asked, with the person's
// updates (checked by the driver) applied to the worker; a withdrawn
// request is resolved.
func TestEngineRequests(t *testing.T) {
	h, d := fakeHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "go")
	c := d.Next(t)
	req := c.Ask(agent.Request{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)})
	a.until(isType("permission-request"))
	if h.rt.Activity() != worker.ActivityAsking {
		t.Errorf("activity %s while asking", h.rt.Activity())
	}
	late := attach(t, h.rt, "")
	if !strings.Contains(kinds(late.frames), "permission-request") {
		t.Errorf("a tab attaching later misses the request: %s", kinds(late.frames))
	}
	updates := json.RawMessage(`{"mode":"acceptEdits","rules":[{"toolName":"Bash","destination":"session"}]}`)
	if err := h.rt.AnswerPermission(req.ID, "allow", "", nil, updates); err != nil {
		t.Fatal(err)
	}
	ans := c.WaitCall(t, "Answer", 1)
	if ans.ID != req.ID || !ans.Answer.Allow || string(ans.Answer.Input) != `{"command":"ls"}` || string(ans.Answer.Updates) != string(updates) {
		t.Errorf("answer %+v", ans)
	}
	a.until(isType("permission-resolved"))
	if set, tools := h.rt.prefs.startFlags(); set.PermissionMode != "acceptEdits" || !strings.Contains(strings.Join(tools, ","), "Bash") {
		t.Errorf("after the answer the next start gets %+v %v", set, tools)
	}
	if err := h.rt.AnswerPermission(req.ID, "deny", "", nil, nil); !errors.Is(err, worker.ErrInvalid) {
		t.Errorf("a second answer: %v", err)
	}

	plan := c.Ask(agent.Request{Tool: "plan-tool", Kind: agent.RequestPlan, Plan: "**do it**"})
	var shown struct {
		PlanHTML string `json:"planHtml"`
	}
	if f := a.until(isType("permission-request")); json.Unmarshal(f.raw, &shown) != nil || !strings.Contains(shown.PlanHTML, "<strong>do it</strong>") {
		t.Errorf("plan request %s", f.raw)
	}
	c.Withdraw(plan.ID)
	if f := a.until(isType("permission-resolved")); f.RequestID != plan.ID || f.Behavior != "deny" {
		t.Errorf("withdrawn: %s", f.raw)
	}
	if n := storedPending(t, h); n != 0 {
		t.Errorf("%d requests still stored", n)
	}
}

// TestEngineRequestAcrossRestart: a shutdown keeps a pending request (the
// agent is killed, so it cannot answer it itself); the next start shows
// it again, its answer goes to a new agent as a message, and the allow
// grants the agent's repeated request at once.
func TestEngineRequestAcrossRestart(t *testing.T) {
	h1, d := fakeHarness(t, harnessOptions{})
	send(t, h1, "go")
	c := d.Next(t)
	in := json.RawMessage(`{"command":"make"}`)
	req := c.Ask(agent.Request{Tool: "Bash", Input: in})
	attach(t, h1.rt, "").until(isType("permission-request"))
	if err := h1.rt.Suspend(t.Context()); err != nil {
		t.Fatal(err)
	}
	if sig := c.WaitCall(t, "Signal", 1); sig.Signal != syscall.SIGKILL {
		t.Errorf("the asking agent got %v, want SIGKILL", sig.Signal)
	}
	if n := storedPending(t, h1); n != 1 {
		t.Fatalf("%d stored requests after the shutdown, want 1", n)
	}
	h2, _ := fakeHarness(t, harnessOptions{store: h1.store, conv: h1.conv, started: true, restored: true, driver: d})
	a := attach(t, h2.rt, "")
	if !strings.Contains(kinds(a.frames), "permission-request") || h2.rt.Activity() != worker.ActivityAsking {
		t.Fatalf("the restored worker does not ask again: %s, %s", kinds(a.frames), h2.rt.Activity())
	}
	if err := h2.rt.RespondPermission(req.ID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	c2 := d.Next(t)
	if !c2.Opts.Resume {
		t.Error("the answer's agent does not resume the conversation")
	}
	if msg := c2.WaitCall(t, "Send", 1); !strings.Contains(msg.Input.Text, RestoredAllow) || !strings.Contains(msg.Input.Text, `{"command":"make"}`) {
		t.Errorf("restored answer %q", msg.Input.Text)
	}
	again := c2.Ask(agent.Request{Tool: "Bash", Input: json.RawMessage(`{ "command": "make" }`)})
	if ans := c2.WaitCall(t, "Answer", 1); ans.ID != again.ID || !ans.Answer.Allow {
		t.Errorf("the repeated request was not granted: %+v", ans)
	}
	c2.Reply("made")
	a.until(isResult)
	if strings.Count(kinds(a.frames), "permission-request") != 1 {
		t.Errorf("the granted request was shown: %s", kinds(a.frames))
	}
}

// TestEngineStopEscalates: an agent that ignores the interrupt and SIGTERM
// is interrupted, then signalled SIGTERM after InterruptWait, then
// SIGKILL after TermGrace; each stage is shown, and the turn ends.
func TestEngineStopEscalates(t *testing.T) {
	d := agenttest.New()
	d.IgnoreInterrupt, d.IgnoreTerm = true, true
	clk := newFakeClock()
	h, _ := fakeHarness(t, harnessOptions{driver: d, clock: clk})
	a := attach(t, h.rt, "")
	send(t, h, "run")
	c := d.Next(t)
	c.Emit(agenttest.Assistant("running"))
	a.until(isStoredType("assistant"))
	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel: %v %v", ok, err)
	}
	a.until(isStage(wire.StageInterrupting))
	c.WaitCall(t, "Interrupt", 1)
	clk.waitTimer(t, InterruptWait)
	clk.advance(InterruptWait)
	a.until(isStage(wire.StageTerminating))
	if sig := c.WaitCall(t, "Signal", 1); sig.Signal != syscall.SIGTERM {
		t.Errorf("first signal %v", sig.Signal)
	}
	clk.waitTimer(t, TermGrace)
	clk.advance(TermGrace)
	a.until(isStage(wire.StageKilling))
	if sig := c.WaitCall(t, "Signal", 2); sig.Signal != syscall.SIGKILL {
		t.Errorf("second signal %v", sig.Signal)
	}
	a.until(isType("exit"))
	a.until(isStage(wire.StageDone))
	if h.rt.Activity() != worker.ActivityIdle {
		t.Errorf("activity %s after the Stop", h.rt.Activity())
	}
}

// TestEngineStartFails: a driver's start failure is shown with its words
// and code, the turn ends, and the next message tries again.
func TestEngineStartFails(t *testing.T) {
	h, d := fakeHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	d.FailStarts(errors.New("fake exited at start-up: boom"))
	if err := h.rt.SendUser(t.Context(), "hello"); err == nil {
		t.Fatal("SendUser succeeded without an agent")
	}
	if f := a.until(isType("error")); f.Code != string(wire.CodeClaudeExited) || f.Text != "fake exited at start-up: boom" {
		t.Errorf("error frame %s", f.raw)
	}
	d.FailStarts(agent.NewError(agent.ErrNotFound, "fake not found: install it"))
	err := h.rt.SendUser(t.Context(), "hello")
	if !errors.Is(err, worker.ErrClaudeAbsent) {
		t.Errorf("missing agent: %v", err)
	}
	if f := a.until(isType("error")); f.Code != string(wire.CodeClaudeNotFound) {
		t.Errorf("error frame %s", f.raw)
	}
	d.FailStarts(nil)
	send(t, h, "third")
	d.Next(t).WaitCall(t, "Send", 1)
	if h.rt.Activity() != worker.ActivityActive {
		t.Errorf("activity %s", h.rt.Activity())
	}
}
