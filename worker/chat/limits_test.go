package chat

import (
	"errors"
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
	"github.com/agentdesk/agentdesk/worker"
)

// TestEngineStartLimits: every start gets the session's tools (its scope),
// its enabled MCP servers only, the worker's limits and allowed tools, and
// what is left of the budget; changed limits reach the next start, made
// before the next message once the running turn is over and not during
// it.
func TestEngineStartLimits(t *testing.T) {
	reg := toolbridge.New(toolbridge.Options{})
	on := worker.MCPServer{Name: "on", Type: worker.MCPStdio, Command: "srv", Env: map[string]string{"T": "secret"}, Enabled: true}
	off := worker.MCPServer{Name: "off", Type: worker.MCPHTTP, URL: "http://127.0.0.1:1/mcp", Enabled: false}
	h, d := fakeHarness(t, harnessOptions{tools: reg, allowed: []string{"Read"}, mcp: []worker.MCPServer{on, off},
		limits: worker.Limits{AppendSystemPrompt: "Be brief.", MaxTurns: 3, MaxBudgetUSD: 2, DisallowedTools: []string{"WebFetch"}},
		spent:  func() (float64, error) { return 0.5, nil }})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	c := d.Next(t)
	o := c.Opts
	if o.Tools.Registry != reg || o.Tools.Scope != "s1" {
		t.Errorf("tools %+v", o.Tools)
	}
	want := agent.Limits{AppendSystemPrompt: "Be brief.", MaxTurns: 3, MaxBudgetUSD: 1.5, DisallowedTools: []string{"WebFetch"}}
	if o.Limits.AppendSystemPrompt != want.AppendSystemPrompt || o.Limits.MaxTurns != 3 || o.Limits.MaxBudgetUSD != 1.5 ||
		!slices.Equal(o.Limits.DisallowedTools, want.DisallowedTools) {
		t.Errorf("limits %+v, want %+v", o.Limits, want)
	}
	if len(o.MCPServers) != 1 || o.MCPServers[0].Name != "on" || o.MCPServers[0].Env["T"] != "secret" {
		t.Errorf("mcp servers %+v, want only the enabled one with its secret", o.MCPServers)
	}
	if !slices.Equal(o.AllowedTools, []string{"Read"}) {
		t.Errorf("allowed %v", o.AllowedTools)
	}

	// During the turn a change waits: the message joins the running agent.
	h.rt.SetLimits(worker.Limits{MaxTurns: 9}, []string{"Bash"})
	send(t, h, "more")
	c.WaitCall(t, "Send", 2)
	c.Reply("done")
	a.until(isResult)
	if n := len(d.Starts()); n != 1 {
		t.Fatalf("%d starts during a turn, want 1", n)
	}
	// Idle: the next message starts an agent with the new limits.
	send(t, h, "again")
	c2 := d.Next(t)
	if c2.Opts.Limits.MaxTurns != 9 || c2.Opts.Limits.MaxBudgetUSD != 0 || !slices.Equal(c2.Opts.AllowedTools, []string{"Bash"}) {
		t.Errorf("after the change: limits %+v allowed %v", c2.Opts.Limits, c2.Opts.AllowedTools)
	}
	if !c2.Opts.Resume {
		t.Error("the new agent does not resume the conversation")
	}
	c2.WaitCall(t, "Send", 1)
	for _, f := range a.frames {
		if f.Type == "exit" {
			t.Errorf("ending the agent for new limits showed as an exit: %s", f.raw)
		}
	}
}

// TestToggleMCPUnknownToAgent: an agent that cannot list its MCP servers
// (the fake CLI refuses the request) or has no such server turns nothing
// live: the answer is worker.ErrNotFound, and the manager's stored change
// holds from the next start.
func TestToggleMCPUnknownToAgent(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	if err := h.rt.ToggleMCP(t.Context(), "ext", false); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("no agent running: %v", err)
	}
	send(t, h, "hello")
	a.until(isResult)
	if err := h.rt.ToggleMCP(t.Context(), "ext", false); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("an agent that cannot list its servers: %v", err)
	}
}
