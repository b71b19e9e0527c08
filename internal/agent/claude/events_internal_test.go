package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestRequestKinds: what a can_use_tool request is to the engine: a plan
// carries its text, questions and tools their kind, an empty input is {}.
func TestRequestKinds(t *testing.T) {
	line := func(tool, input string) Line {
		raw := `{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"` + tool +
			`","input":` + input + `,"permission_suggestions":null}}`
		l, err := ParseLine([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, tt := range []struct {
		tool, input string
		kind        agent.RequestKind
		plan        string
	}{
		{"ExitPlanMode", `{"plan":"# Plan"}`, agent.RequestPlan, "# Plan"},
		{"AskUserQuestion", `{"questions":[]}`, agent.RequestQuestion, ""},
		{"Bash", `{"plan":"x"}`, agent.RequestTool, ""},
		{"Read", `null`, agent.RequestTool, ""},
	} {
		r, err := newRequest(line(tt.tool, tt.input))
		if err != nil || r.ID != "r1" || r.Kind != tt.kind || r.Plan != tt.plan || r.Suggestions != nil {
			t.Errorf("%s: %+v %v", tt.tool, r, err)
		}
		if tt.input == "null" && string(r.Input) != "{}" {
			t.Errorf("%s: input %s", tt.tool, r.Input)
		}
	}
	d := NewDriver(Config{})
	if d.RequestKind("ExitPlanMode") != agent.RequestPlan || d.RequestKind("Edit") != agent.RequestTool {
		t.Error("RequestKind")
	}
}

// TestEventsOfFixtures: every recorded CLI line becomes what the engine
// expects of it; no line of the control protocol reaches the engine as a
// message.
func TestEventsOfFixtures(t *testing.T) {
	c := &conn{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	kinds := map[agent.EventKind]int{}
	for _, fl := range fixtureLinesInternal(t) {
		l, err := ParseLine(fl)
		l.Err = err
		for _, ev := range c.event(nil, l) {
			kinds[ev.Kind]++
			switch {
			case ev.Kind == agent.KindMessage && (strings.HasPrefix(ev.Type, "control_") || ev.Type == TypeCommandLifecycle):
				t.Errorf("a protocol line as a message: %.200s", fl)
			case ev.Kind == agent.KindRequest && ev.Request.ID == "":
				t.Errorf("a request without an id: %.200s", fl)
			case ev.Kind == agent.KindDelta && ev.EndsMessage != strings.Contains(string(fl), `"message_stop"`):
				t.Errorf("message_stop: %.200s", fl)
			}
		}
	}
	for _, k := range []agent.EventKind{agent.KindMessage, agent.KindDelta, agent.KindRequest} {
		if kinds[k] == 0 {
			t.Errorf("no event of kind %d among the fixtures: %v", k, kinds)
		}
	}
	ev := c.event(nil, Line{Type: "control_cancel_request", RequestID: "r9", Raw: []byte(`{}`)})
	if len(ev) != 1 || ev[0].Kind != agent.KindWithdrawn || ev[0].RequestID != "r9" {
		t.Errorf("cancel request: %+v", ev)
	}
}

// fixtureLinesInternal is every stdout line of the recorded transcripts.
func fixtureLinesInternal(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, name := range []string{"f_permission_stdio.transcript.jsonl", "f_ask_user_question.transcript.jsonl", "e_interrupt_tool.transcript.jsonl"} {
		data := readFixture(t, name)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var tl struct {
				Dir string          `json:"dir"`
				Msg json.RawMessage `json:"msg"`
			}
			if json.Unmarshal([]byte(line), &tl) == nil && tl.Dir == "stdout" {
				out = append(out, tl.Msg)
			}
		}
	}
	out = append(out, readFixtureLines(t, "b_partial_text_thinking.jsonl")...)
	return out
}

// TestRefused: the CLI's refusal of a live change is a conflict with its
// reason; an exit stays agent.ErrExited.
func TestRefused(t *testing.T) {
	err := refused(&ControlError{Message: "Cannot set permission mode to bypassPermissions"})
	if !errors.Is(err, wire.ErrConflict) || !strings.HasPrefix(err.Error(), "claude refused the change: Cannot set") {
		t.Errorf("refusal: %v", err)
	}
	if err := refused(fmt.Errorf("write: %w", ErrExited)); !errors.Is(err, agent.ErrExited) {
		t.Errorf("exit: %v", err)
	}
	if refused(nil) != nil {
		t.Error("success is an error")
	}
}

// TestAnswers: the control responses of an allow (with the person's
// updates, byte for byte) and of a deny.
func TestAnswers(t *testing.T) {
	upd := `[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`
	ups, err := parseUpdates(true, json.RawMessage(upd))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(allowAnswer{"allow", json.RawMessage(`{"command":"ls"}`), ups})
	if string(b) != `{"behavior":"allow","updatedInput":{"command":"ls"},"updatedPermissions":`+upd+`}` {
		t.Errorf("allow: %s", b)
	}
	b, _ = json.Marshal(allowAnswer{"allow", json.RawMessage(`{}`), nil})
	if string(b) != `{"behavior":"allow","updatedInput":{}}` {
		t.Errorf("allow without updates: %s", b)
	}
	b, _ = json.Marshal(denyAnswer{"deny", "no"})
	if string(b) != `{"behavior":"deny","message":"no"}` {
		t.Errorf("deny: %s", b)
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func readFixtureLines(t *testing.T, name string) [][]byte {
	var out [][]byte
	for _, line := range strings.Split(strings.TrimSpace(string(readFixture(t, name))), "\n") {
		out = append(out, []byte(line))
	}
	return out
}
