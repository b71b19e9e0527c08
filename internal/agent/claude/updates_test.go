package claude

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/wire"
)

func TestParseUpdates(t *testing.T) {
	ok := `[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],"behavior":"allow","destination":"session"},{"type":"setMode","mode":"acceptEdits","destination":"session"}]`
	u, err := parseUpdates(true, json.RawMessage(ok))
	if err != nil || len(u) != 2 || u[0].Rules[0].RuleContent != "npm test" || u[1].Mode != "acceptEdits" {
		t.Fatalf("valid list: %+v %v", u, err)
	}
	// Passed on to the CLI byte for byte.
	if b, _ := json.Marshal(u); string(b) != ok {
		t.Fatalf("re-encoded: %s", b)
	}
	if u, err := parseUpdates(true, nil); u != nil || err != nil {
		t.Fatalf("none: %v %v", u, err)
	}
	bad := map[string]string{
		"deny":            ok,
		"not a list":      `{"type":"setMode"}`,
		"no type":         `[{"destination":"session"}]`,
		"bad destination": `[{"type":"addRules","destination":"cliArg"}]`,
		"bad mode":        `[{"type":"setMode","mode":"yolo","destination":"session"}]`,
		"not an object":   `["setMode"]`,
		"more than 16":    "[" + strings.Repeat(`{"type":"setMode","mode":"plan","destination":"session"},`, 16) + `{"type":"setMode","mode":"plan","destination":"session"}]`,
	}
	for name, raw := range bad {
		behavior := "allow"
		if name == "deny" {
			behavior = "deny"
		}
		if _, err := parseUpdates(behavior == "allow", json.RawMessage(raw)); !errors.Is(err, wire.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestUpdates: what an answer's updates change, for the engine.
func TestUpdates(t *testing.T) {
	d := NewDriver(Config{})
	raw := `[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"},{"toolName":""}],"behavior":"allow","destination":"session"},` +
		`{"type":"addRules","rules":[{"toolName":"Read"}],"behavior":"deny","destination":"session"},` +
		`{"type":"setMode","mode":"acceptEdits","destination":"session"}]`
	u, err := d.Updates(true, json.RawMessage(raw))
	if err != nil || u.Mode != "acceptEdits" || len(u.Rules) != 1 || u.Rules[0] != (agent.Rule{ToolName: "Bash", RuleContent: "npm test", Destination: "session"}) {
		t.Fatalf("updates %+v %v", u, err)
	}
	if _, err := d.Updates(false, json.RawMessage(raw)); !errors.Is(err, wire.ErrInvalid) {
		t.Errorf("deny with updates: %v", err)
	}
}
