package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
	"github.com/agentdesk/agentdesk/worker"
)

// namingDriver is the fake driver whose agents name the conversation
// themselves (agent.Named), as Codex names its threads.
type namingDriver struct {
	*agenttest.Driver
	name string
}

type namingConn struct {
	*agenttest.Conn
	name string
}

func (c namingConn) Conversation() string { return c.name }

func (d namingDriver) Start(ctx context.Context, o agent.Options) (agent.Conn, error) {
	c, err := d.Driver.Start(ctx, o)
	if err != nil {
		return nil, err
	}
	return namingConn{Conn: c.(*agenttest.Conn), name: d.name}, nil
}

// TestEngineRecordsNamedConversation: an agent that names the conversation
// itself gets it recorded (instead of the id the engine made up), and the
// next agent resumes that one.
func TestEngineRecordsNamedConversation(t *testing.T) {
	fake := agenttest.New()
	h := newHarness(t, harnessOptions{driver: namingDriver{Driver: fake, name: "thread-7"}})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	c := fake.Next(t)
	c.WaitCall(t, "Send", 1)
	c.Reply("hi")
	a.until(isResult)
	h.mu.Lock()
	conv := h.conv
	h.mu.Unlock()
	if conv != "thread-7" {
		t.Fatalf("recorded conversation %q, want the agent's thread-7", conv)
	}
	c.Exit(0, "")
	a.until(isType("exit"))
	send(t, h, "again")
	c2 := fake.Next(t)
	if o := c2.Opts; o.Conversation != "thread-7" || !o.Resume {
		t.Fatalf("the next agent starts with %q (resume %v), want thread-7 resumed", o.Conversation, o.Resume)
	}
	user := a.until(isStoredType("user"))
	if !strings.Contains(string(user.Raw), `"session_id":"thread-7"`) {
		t.Fatalf("the next user message names another conversation: %s", user.Raw)
	}
}

// TestEngineRetriesAreNoProgress: messages marked NoProgress (an agent
// retrying an API it cannot reach) are shown but do not hold off the
// stall watchdog.
func TestEngineRetriesAreNoProgress(t *testing.T) {
	clk := newFakeClock()
	h, d := fakeHarness(t, harnessOptions{clock: clk, stall: stallAfter})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	c := d.Next(t)
	c.WaitCall(t, "Send", 1)
	c.Emit(agenttest.Assistant("working on it"))
	a.until(isStoredType("assistant"))
	clk.waitTimer(t, stallAfter)
	clk.advance(stallAfter / 2)
	retry := agenttest.Message("system", map[string]any{"subtype": "api_retry", "error": "connection refused"})
	retry.NoProgress = true
	c.Emit(retry)
	a.until(isStoredType("system"))
	clk.advance(stallAfter / 2)
	a.until(isActivity(worker.ActivityStalled))
	c.Emit(agenttest.Assistant("back"))
	a.until(isActivity(worker.ActivityActive))
}
