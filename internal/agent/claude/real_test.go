package claude_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// answerFunc answers a can_use_tool request given its tool input.
type answerFunc func(input json.RawMessage) any

func allow(input json.RawMessage) any {
	return map[string]any{"behavior": "allow", "updatedInput": input}
}

// answerBlue answers AskUserQuestion: the input plus answers keyed by
// question text (claude-cli.md §6).
func answerBlue(input json.RawMessage) any {
	var in map[string]any
	json.Unmarshal(input, &in)
	in["answers"] = map[string]string{"Which color do you prefer?": "Blue"}
	return map[string]any{"behavior": "allow", "updatedInput": in}
}

func deny(json.RawMessage) any {
	return map[string]any{"behavior": "deny", "message": "The user said no"}
}

// realTurn sends prompt and reads the turn to its result, answering
// permission requests with answer (nil: none expected).
func realTurn(t *testing.T, p *claude.Process, prompt string, answer answerFunc) []claude.Line {
	t.Helper()
	if err := p.SendUser(prompt); err != nil {
		t.Fatal(err)
	}
	var all []claude.Line
	for {
		lines := until(t, p, func(l claude.Line) bool { return isResult(l) || l.Subtype == "can_use_tool" })
		all = append(all, lines...)
		last := lines[len(lines)-1]
		if isResult(last) {
			return all
		}
		if answer == nil {
			t.Fatalf("unexpected permission request: %s", last.Raw)
		}
		var req struct {
			Request struct{ Input json.RawMessage } `json:"request"`
		}
		if err := json.Unmarshal(last.Raw, &req); err != nil {
			t.Fatal(err)
		}
		if err := p.Respond(last.RequestID, answer(req.Request.Input)); err != nil {
			t.Fatal(err)
		}
	}
}

func resultOf(t *testing.T, lines []claude.Line) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(lines[len(lines)-1].Raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func startReal(t *testing.T, o claude.Options) *claude.Process {
	t.Helper()
	p, err := claude.Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	if _, err := p.Initialize(t.Context()); err != nil {
		t.Fatalf("initialize: %v\nstderr: %s", err, p.Stderr())
	}
	return p
}

// TestRealCLI drives the pinned CLI against the fake API: a text turn, a
// Bash call allowed and one denied over stdio, an interrupt during a slow
// stream and a follow-up, then a resume in a new process.
func TestRealCLI(t *testing.T) {
	bin := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	home := t.TempDir()
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sid := uuid.NewString()
	o := claude.Options{Path: bin, Dir: work, Env: api.ClaudeEnv(home), SessionID: sid, Grace: 10 * time.Second}
	p := startReal(t, o)

	lines := realTurn(t, p, "hello there", nil)
	if lines[0].Subtype != "init" || field(t, lines[0], "session_id") != sid {
		t.Fatalf("first line %s", lines[0].Raw)
	}
	if res := resultOf(t, lines); !strings.HasPrefix(res["result"].(string), "Echo: hello there (request had") {
		t.Fatalf("result %v", res["result"])
	}

	realTurn(t, p, "bash:touch allowed.txt", allow)
	if _, err := os.Stat(filepath.Join(work, "allowed.txt")); err != nil {
		t.Errorf("allowed command did not run: %v", err)
	}
	lines = realTurn(t, p, "bash:touch denied.txt", deny)
	if _, err := os.Stat(filepath.Join(work, "denied.txt")); err == nil {
		t.Error("denied command ran")
	}
	if d, _ := resultOf(t, lines)["permission_denials"].([]any); len(d) != 1 {
		t.Errorf("permission_denials = %v", d)
	}

	lines = realTurn(t, p, "ask me", answerBlue)
	if res, _ := resultOf(t, lines)["result"].(string); !strings.Contains(res, `="Blue"`) {
		t.Errorf("AskUserQuestion result %q", res)
	}

	interruptSlow(t, p, api)
	lines = realTurn(t, p, "after interrupt", nil)
	last := api.MessageRequests()
	msgs := last[len(last)-1].Messages()
	if !hasText(msgs, "assistant", "slow chunk 00") || !hasText(msgs, "user", "hello there") {
		t.Errorf("follow-up lacks the earlier context: roles %v", last[len(last)-1].Roles())
	}
	n := len(msgs)
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if code, sig := p.ExitStatus(); code != 0 || sig != "" {
		t.Errorf("exit %d %q; stderr: %s", code, sig, p.Stderr())
	}
	if _, err := os.Stat(claude.SessionFilePath(filepath.Join(home, ".claude"), work, sid)); err != nil {
		t.Errorf("session file: %v", err)
	}

	o.Resume = true
	p2 := startReal(t, o)
	lines = realTurn(t, p2, "resumed", nil)
	if field(t, lines[0], "session_id") != sid {
		t.Errorf("resumed session id %s", field(t, lines[0], "session_id"))
	}
	reqs := api.MessageRequests()
	resumed := reqs[len(reqs)-1]
	if len(resumed.Messages()) <= n || !hasText(resumed.Messages(), "user", "after interrupt") ||
		resumed.SessionID() != sid {
		t.Errorf("resumed request: %d messages (before %d), roles %v, session %q",
			len(resumed.Messages()), n, resumed.Roles(), resumed.SessionID())
	}
	for _, r := range api.Requests() {
		t.Logf("%s %s%s -> %d %s msgs=%d disconnected=%v", r.Method, r.Host, r.Path, r.Status, r.Reply,
			len(r.Messages()), r.Disconnected)
		if r.Method == "CONNECT" {
			t.Errorf("the CLI tried to reach %s", r.Host)
		}
	}
}

// interruptSlow starts a slow reply, interrupts it once text streams, and
// checks the turn ends interrupted and the API stream was closed.
func interruptSlow(t *testing.T, p *claude.Process, api *fakeapi.Server) {
	t.Helper()
	if err := p.SendUser("be slow please"); err != nil {
		t.Fatal(err)
	}
	until(t, p, func(l claude.Line) bool {
		return l.Type == "stream_event" && strings.Contains(string(l.Raw), "slow chunk 01")
	})
	if err := p.Interrupt(t.Context()); err != nil {
		t.Fatal(err)
	}
	lines := until(t, p, isResult)
	if r := lines[len(lines)-1]; r.Subtype != "error_during_execution" {
		t.Errorf("interrupted turn ended %s", r.Raw)
	}
	deadline := time.Now().Add(waitLimit)
	for api.Disconnects() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the fake API saw no disconnect")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hasText reports whether a message of role contains text.
func hasText(msgs []fakeapi.Message, role, text string) bool {
	for _, m := range msgs {
		if m.Role == role && strings.Contains(string(m.Content), text) {
			return true
		}
	}
	return false
}
