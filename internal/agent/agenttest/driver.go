// Package agenttest is a fake agent.Driver for tests of the chat engine:
// no process runs. Each Start makes a scriptable Conn that a test takes
// with Driver.Next; the test then makes the "agent" say things (Emit,
// Reply, Ask, Withdraw), ends it (Exit), and checks what the engine asked
// of it (WaitCall). It can ignore an interrupt or SIGTERM, to walk the
// engine's escalating Stop through its stages.
package agenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// Wait bounds every wait of the fake (a test that waits longer failed).
const Wait = 2 * time.Minute

// Driver is the fake driver. Set its exported fields before the engine
// uses it. Safe for concurrent use.
type Driver struct {
	// Caps is what every Conn answers at its start.
	Caps agent.Capabilities
	// IgnoreInterrupt makes Conns never answer an interrupt (a wedged
	// agent): Interrupt waits for its ctx.
	IgnoreInterrupt bool
	// IgnoreTerm makes Conns outlive SIGTERM: only SIGKILL or Close ends
	// them.
	IgnoreTerm bool

	mu     sync.Mutex
	starts []agent.Options
	fail   error
	conns  chan *Conn
}

var (
	_ agent.Driver  = (*Driver)(nil)
	_ agent.Updater = (*Driver)(nil)
)

// New returns a driver whose starts succeed.
func New() *Driver { return &Driver{conns: make(chan *Conn, 64)} }

// Start records o and returns a new Conn, or the error FailStarts set.
func (d *Driver) Start(ctx context.Context, o agent.Options) (agent.Conn, error) {
	d.mu.Lock()
	d.starts = append(d.starts, o)
	err := d.fail
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := newConn(o, d)
	d.conns <- c
	return c, nil
}

// FailStarts makes later starts fail with err (nil: succeed again).
func (d *Driver) FailStarts(err error) {
	d.mu.Lock()
	d.fail = err
	d.mu.Unlock()
}

// Starts returns the options of every start so far.
func (d *Driver) Starts() []agent.Options {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]agent.Options(nil), d.starts...)
}

// Next waits for the Conn of the next start.
func (d *Driver) Next(t Fataler) *Conn {
	t.Helper()
	select {
	case c := <-d.conns:
		return c
	case <-time.After(Wait):
		t.Fatalf("agenttest: the engine started no agent")
		return nil
	}
}

// Fataler is the part of testing.TB the fake needs.
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// fakeUpdates is the fake's own shape of permission updates.
type fakeUpdates struct {
	Mode  string `json:"mode"`
	Rules []struct {
		ToolName    string `json:"toolName"`
		RuleContent string `json:"ruleContent"`
		Destination string `json:"destination"`
	} `json:"rules"`
}

// Updates reads the fake's permission updates: {"mode":…,"rules":[…]},
// with an allow only.
func (d *Driver) Updates(allow bool, raw json.RawMessage) (agent.Updates, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return agent.Updates{}, nil
	}
	if !allow {
		return agent.Updates{}, fmt.Errorf("updates go with an allow only: %w", wire.ErrInvalid)
	}
	var u fakeUpdates
	if err := json.Unmarshal(raw, &u); err != nil {
		return agent.Updates{}, fmt.Errorf("updates must be {\"mode\",\"rules\"}: %w", wire.ErrInvalid)
	}
	out := agent.Updates{Mode: u.Mode}
	for _, r := range u.Rules {
		out.Rules = append(out.Rules, agent.Rule{ToolName: r.ToolName, RuleContent: r.RuleContent, Destination: r.Destination})
	}
	return out, nil
}
