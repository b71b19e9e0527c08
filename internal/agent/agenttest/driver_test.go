package agenttest_test

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
	"github.com/agentdesk/agentdesk/internal/wire"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestFakeConn: what a test scripts reaches the engine's side in order,
// the engine's calls are recorded, and an exit ends the events.
func TestFakeConn(t *testing.T) {
	d := agenttest.New()
	conn, err := d.Start(t.Context(), agent.Options{Conversation: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Next(t)
	got := make(chan []agent.Event, 4)
	go func() {
		for b := range conn.Events() {
			got <- b
		}
		close(got)
	}()
	c.Reply("hi")
	if b := <-got; len(b) != 2 || b[0].Type != "assistant" || b[1].Type != "result" {
		t.Errorf("batch %+v", b)
	}
	if err := conn.Send(agent.Input{ID: "u1", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	if call := c.WaitCall(t, "Send", 1); call.Input.Text != "hello" {
		t.Errorf("send call %+v", call)
	}
	if err := conn.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-conn.Done()
	if _, ok := <-got; ok {
		t.Error("events go on after the exit")
	}
	if code, sig := conn.ExitStatus(); code != -1 || sig != "SIGTERM" {
		t.Errorf("exit %d %q", code, sig)
	}
	if err := conn.Send(agent.Input{Text: "late"}); !errors.Is(err, agent.ErrExited) {
		t.Errorf("send after exit: %v", err)
	}
	if err := conn.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d.Starts()[0].Conversation != "c1" {
		t.Errorf("starts %+v", d.Starts())
	}
}

// TestFakeIgnores: an agent that ignores interrupts and SIGTERM ends only
// with SIGKILL.
func TestFakeIgnores(t *testing.T) {
	d := agenttest.New()
	d.IgnoreInterrupt, d.IgnoreTerm = true, true
	conn, err := d.Start(t.Context(), agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := conn.Interrupt(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupt answered: %v", err)
	}
	_ = conn.Signal(syscall.SIGTERM)
	select {
	case <-conn.Done():
		t.Fatal("SIGTERM ended it")
	default:
	}
	_ = conn.Signal(syscall.SIGKILL)
	<-conn.Done()
}

func TestFakeUpdates(t *testing.T) {
	d := agenttest.New()
	u, err := d.Updates(true, []byte(`{"mode":"plan","rules":[{"toolName":"Bash","destination":"session"}]}`))
	if err != nil || u.Mode != "plan" || len(u.Rules) != 1 || u.Rules[0].ToolName != "Bash" {
		t.Errorf("updates %+v %v", u, err)
	}
	if _, err := d.Updates(false, []byte(`{}`)); !errors.Is(err, wire.ErrInvalid) {
		t.Errorf("deny with updates: %v", err)
	}
}
