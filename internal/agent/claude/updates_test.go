package chat

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

func TestParseUpdates(t *testing.T) {
	ok := `[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],"behavior":"allow","destination":"session"},{"type":"setMode","mode":"acceptEdits","destination":"session"}]`
	u, err := parseUpdates("allow", json.RawMessage(ok))
	if err != nil || len(u) != 2 || u[0].Rules[0].RuleContent != "npm test" || u[1].Mode != "acceptEdits" {
		t.Fatalf("valid list: %+v %v", u, err)
	}
	// Passed on to the CLI byte for byte.
	if b, _ := json.Marshal(u); string(b) != ok {
		t.Fatalf("re-encoded: %s", b)
	}
	if u, err := parseUpdates("allow", nil); u != nil || err != nil {
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
		if _, err := parseUpdates(behavior, json.RawMessage(raw)); !errors.Is(err, worker.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestPlanHTML(t *testing.T) {
	h := planHTML("ExitPlanMode", json.RawMessage(`{"plan":"# Plan\n\n**bold** <script>x</script>"}`))
	if !strings.Contains(h, "<strong>bold</strong>") || strings.Contains(h, "<script") {
		t.Fatalf("plan html: %q", h)
	}
	if planHTML("Bash", json.RawMessage(`{"plan":"x"}`)) != "" || planHTML("ExitPlanMode", json.RawMessage(`{}`)) != "" {
		t.Fatal("html for no plan")
	}
}
