package codex

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestDriverUpdates: the request's own suggestion is the one update Codex
// takes; anything else is refused as invalid.
func TestDriverUpdates(t *testing.T) {
	d := NewDriver(Config{})
	u, err := d.Updates(true, sessionSuggestion(Rule{Tool: "Bash", Content: "touch x"}))
	if err != nil || len(u.Rules) != 1 || u.Rules[0] != (agent.Rule{ToolName: "Bash", RuleContent: "touch x", Destination: "session"}) || u.Mode != "" {
		t.Fatalf("the suggestion: %+v, %v", u, err)
	}
	for _, raw := range []string{
		`[{"type":"setMode","mode":"never","destination":"session"}]`,
		`[{"type":"addRules","behavior":"allow","destination":"localSettings","rules":[{"toolName":"Bash"}]}]`,
		`[{"type":"addRules","behavior":"deny","destination":"session","rules":[{"toolName":"Bash"}]}]`,
		`{"type":"addRules"}`,
	} {
		if _, err := d.Updates(true, json.RawMessage(raw)); !errors.Is(err, wire.ErrInvalid) {
			t.Errorf("%s: %v", raw, err)
		}
	}
	if _, err := d.Updates(false, sessionSuggestion(Rule{Tool: "Bash"})); !errors.Is(err, wire.ErrInvalid) {
		t.Errorf("updates with a deny: %v", err)
	}
}

// TestStartMissingCLI: a CLI that does not exist is agent.ErrNotFound.
func TestStartMissingCLI(t *testing.T) {
	_, err := NewDriver(Config{Path: "/nonexistent/codex"}).Start(t.Context(), agent.Options{Dir: t.TempDir()})
	if !errors.Is(err, agent.ErrNotFound) || !strings.Contains(err.Error(), "codex") {
		t.Fatalf("got %v", err)
	}
}

// TestMessageInputs: images go as image inputs, text files in the text,
// other files are named only.
func TestMessageInputs(t *testing.T) {
	m := message(agent.Input{ID: "u1", Text: "look", Files: []attach.File{
		{Name: "a.png", MediaType: "image/png", Kind: attach.Image, Data: []byte{1, 2}},
		{Name: "notes.txt", MediaType: "text/plain", Kind: attach.Text, Data: []byte("hello")},
		{Name: "doc.pdf", MediaType: "application/pdf", Kind: attach.Document, Data: []byte("%PDF")},
	}})
	if m.ID != "u1" || len(m.Images) != 1 || m.Images[0] != "data:image/png;base64,AQI=" {
		t.Fatalf("message %+v", m)
	}
	for _, want := range []string{"look", `<file name="notes.txt">`, "hello", "doc.pdf", "not sent"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text %q lacks %q", m.Text, want)
		}
	}
}

// TestEvents: each Out becomes the engine's event; a retry is no
// progress, questions are question requests.
func TestEvents(t *testing.T) {
	evs := events([]Out{
		{Kind: OutMessage, Type: "system", UUID: "m1", Raw: []byte(`{}`), Retrying: true, InForce: Settings{Model: "m", Policy: "never"}},
		{Kind: OutDelta, Raw: []byte(`{}`), EndsMessage: true},
		{Kind: OutRequest, Request: &Request{ID: "r1", Tool: "AskUserQuestion", Question: true}},
		{Kind: OutRequest, Request: &Request{ID: "r2", Tool: "Bash"}},
		{Kind: OutWithdrawn, RequestID: "r2"},
		{Kind: 0},
	})
	if len(evs) != 5 {
		t.Fatalf("%d events: %+v", len(evs), evs)
	}
	if e := evs[0]; e.Kind != agent.KindMessage || !e.NoProgress || e.UUID != "m1" || e.InForce != (agent.Settings{Model: "m", PermissionMode: "never"}) {
		t.Errorf("message %+v", e)
	}
	if e := evs[1]; e.Kind != agent.KindDelta || !e.EndsMessage {
		t.Errorf("delta %+v", e)
	}
	if e := evs[2]; e.Kind != agent.KindRequest || e.Request.Kind != agent.RequestQuestion || e.Request.ID != "r1" {
		t.Errorf("question %+v", e.Request)
	}
	if e := evs[3]; e.Request.Kind != agent.RequestTool || e.Request.Tool != "Bash" {
		t.Errorf("tool request %+v", e.Request)
	}
	if e := evs[4]; e.Kind != agent.KindWithdrawn || e.RequestID != "r2" {
		t.Errorf("withdrawn %+v", e)
	}
}
