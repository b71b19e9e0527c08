package claude_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

func TestInitializeAndTurn(t *testing.T) {
	p := startFake(t, claude.Options{SessionID: "11111111-2222-3333-4444-555555555555"})
	raw, err := p.Initialize(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var init struct{ Pid int }
	if err := json.Unmarshal(raw, &init); err != nil || init.Pid != p.Pid() {
		t.Fatalf("initialize response %s (err %v), want pid %d", raw, err, p.Pid())
	}
	prompt := `hello <b>"world"</b> & co`
	if err := p.SendUser(prompt); err != nil {
		t.Fatal(err)
	}
	lines := until(t, p, isResult)
	if got := types(lines); !slices.Equal(got, []string{"system/init", "assistant/", "result/success"}) {
		t.Fatalf("turn = %v (the initialize reply must not be among them)", got)
	}
	if sid := field(t, lines[0], "session_id"); sid != "11111111-2222-3333-4444-555555555555" {
		t.Errorf("session_id = %q", sid)
	}
	if res := field(t, lines[2], "result"); res != "Echo: "+prompt {
		t.Errorf("result = %q", res)
	}
	if lines[2].UUID == "" {
		t.Error("result has no uuid")
	}
}

func TestControlError(t *testing.T) {
	p := startFake(t, claude.Options{})
	_, err := p.Control(t.Context(), map[string]string{"subtype": "no_such_subtype"})
	var ce *claude.ControlError
	if !errors.As(err, &ce) || ce.Code != "unsupported_request" ||
		!strings.Contains(ce.Message, "no_such_subtype") {
		t.Fatalf("err = %v, want a ControlError", err)
	}
	if err := p.SetPermissionMode(t.Context(), "acceptEdits"); err != nil {
		t.Fatal(err)
	}
	// The mode change prints a status line; the reply itself is consumed.
	lines := until(t, p, func(l claude.Line) bool { return l.Type == "system" })
	if got := types(lines); !slices.Equal(got, []string{"system/status"}) {
		t.Fatalf("lines = %v", got)
	}
}

// TestScriptTurns replays the recorded long-lived session turn by turn.
func TestScriptTurns(t *testing.T) {
	p := startFake(t, claude.Options{}, "FAKECLAUDE_SCRIPT="+fixture(t, "e_long_lived.transcript.jsonl"))
	var results []string
	for i := range 4 {
		if err := p.SendUser(fmt.Sprintf("turn %d", i)); err != nil {
			t.Fatal(err)
		}
		lines := until(t, p, isResult)
		if lines[0].Subtype != "init" {
			t.Errorf("turn %d starts with %v", i, types(lines[:1]))
		}
		results = append(results, lines[len(lines)-1].Subtype)
	}
	want := []string{"success", "success", "error_during_execution", "success"}
	if !slices.Equal(results, want) {
		t.Fatalf("results = %v, want %v", results, want)
	}
}

// TestRespondCanUseTool answers a recorded permission request: the fake
// goes on only when the answer carries the CLI's request id.
func TestRespondCanUseTool(t *testing.T) {
	p := startFake(t, claude.Options{}, "FAKECLAUDE_SCRIPT="+fixture(t, "f_permission_stdio.transcript.jsonl"))
	if _, err := p.Initialize(t.Context()); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"c5d1a3bb-0570-45e5-975c-1e8dc655ed4f", "2a1fef94-0fff-4213-8c9c-20ba27d6726e"} {
		if err := p.SendUser("run it"); err != nil {
			t.Fatal(err)
		}
		lines := until(t, p, func(l claude.Line) bool { return l.Type == "control_request" })
		req := lines[len(lines)-1]
		if req.Subtype != "can_use_tool" || req.RequestID != id {
			t.Fatalf("turn %d: got %s/%s id %q", i, req.Type, req.Subtype, req.RequestID)
		}
		resp := map[string]any{"behavior": "deny", "message": "no"}
		if i == 0 {
			resp = map[string]any{"behavior": "allow", "updatedInput": map[string]string{"command": "touch f"}}
		}
		if err := p.Respond(req.RequestID, resp); err != nil {
			t.Fatal(err)
		}
		lines = until(t, p, isResult)
		if got := types(lines); !slices.Equal(got, []string{"user/", "assistant/", "result/success"}) {
			t.Fatalf("turn %d after the answer: %v", i, got)
		}
	}
}

// TestInterrupt interrupts a turn that waits for a permission answer; the
// process stays usable. When idle, interrupt does nothing.
func TestInterrupt(t *testing.T) {
	p := startFake(t, claude.Options{}, "FAKECLAUDE_SCRIPT="+fixture(t, "f_permission_stdio.transcript.jsonl"))
	if err := p.Interrupt(t.Context()); err != nil {
		t.Fatalf("idle interrupt: %v", err)
	}
	if err := p.SendUser("run it"); err != nil {
		t.Fatal(err)
	}
	until(t, p, func(l claude.Line) bool { return l.Subtype == "can_use_tool" })
	if err := p.Interrupt(t.Context()); err != nil {
		t.Fatal(err)
	}
	lines := until(t, p, isResult)
	if got := types(lines); !slices.Equal(got, []string{"user/", "result/error_during_execution"}) {
		t.Fatalf("after interrupt: %v", got)
	}
	if !strings.Contains(string(lines[0].Raw), "[Request interrupted by user]") {
		t.Errorf("interrupt marker missing: %s", lines[0].Raw)
	}
	if err := p.SendUser("again"); err != nil {
		t.Fatal(err)
	}
	until(t, p, func(l claude.Line) bool { return l.Subtype == "can_use_tool" })
}

func TestStderrCaptured(t *testing.T) {
	p := startFake(t, claude.Options{SessionID: "sid-stderr"})
	if err := p.Close(t.Context()); err != nil { // stderr is complete once closed
		t.Fatal(err)
	}
	if s := p.Stderr(); !strings.Contains(s, "fakeclaude: pid=") || !strings.Contains(s, `"sid-stderr"`) {
		t.Fatalf("stderr = %q", s)
	}
	if code, sig := p.ExitStatus(); code != 0 || sig != "" {
		t.Errorf("exit = %d %q, want 0", code, sig)
	}
}

func TestExitAtStart(t *testing.T) {
	p := startFake(t, claude.Options{}, "FAKECLAUDE_EXIT_AT_START=3")
	_, err := p.Initialize(t.Context())
	if !errors.Is(err, claude.ErrExited) || !strings.Contains(err.Error(), "exit code 3") ||
		!strings.Contains(err.Error(), "exiting at start") {
		t.Fatalf("Initialize: %v, want ErrExited with the status and stderr", err)
	}
	waitClosed(t, p.Done(), "Done")
	if code, sig := p.ExitStatus(); code != 3 || sig != "" {
		t.Errorf("exit = %d %q", code, sig)
	}
	if lines := drain(t, p); len(lines) != 0 {
		t.Errorf("lines: %v", types(lines))
	}
	if err := p.SendUser("late"); !errors.Is(err, claude.ErrExited) {
		t.Errorf("SendUser after exit: %v", err)
	}
}

// TestPendingControlFailsOnExit: the process dies without answering.
func TestPendingControlFailsOnExit(t *testing.T) {
	p := startFake(t, claude.Options{}, "FAKECLAUDE_EXIT_ON=initialize")
	_, err := p.Initialize(t.Context())
	if !errors.Is(err, claude.ErrExited) || !strings.Contains(err.Error(), "exit code 5") {
		t.Fatalf("Initialize: %v", err)
	}
}

func TestNotFound(t *testing.T) {
	notExec := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/nonexistent/claude", notExec, t.TempDir()} {
		_, err := claude.Start(t.Context(), claude.Options{Path: path})
		if !errors.Is(err, claude.ErrNotFound) ||
			!strings.Contains(err.Error(), "npm install -g @anthropic-ai/claude-code") {
			t.Errorf("Start(%q) = %v, want ErrNotFound", path, err)
		}
	}
}

// TestLongLine: a 5 MB line arrives whole.
func TestLongLine(t *testing.T) {
	text := strings.Repeat("0123456789", 500_000)
	script := filepath.Join(t.TempDir(), "long.jsonl")
	data := fmt.Sprintf(`{"type":"assistant","uuid":"{{UUID}}","message":{"content":[{"type":"text","text":%q}]}}`+"\n"+
		`{"type":"result","subtype":"success","session_id":"{{SESSION_ID}}"}`+"\n", text)
	if err := os.WriteFile(script, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startFake(t, claude.Options{SessionID: "sid-long"}, "FAKECLAUDE_SCRIPT="+script)
	if err := p.SendUser("go"); err != nil {
		t.Fatal(err)
	}
	lines := until(t, p, isResult)
	if len(lines) != 2 || len(lines[0].Raw) < len(text) || lines[0].UUID == "" {
		t.Fatalf("got %v, first %d bytes", types(lines), len(lines[0].Raw))
	}
	if sid := field(t, lines[1], "session_id"); sid != "sid-long" {
		t.Errorf("token not substituted: %q", sid)
	}
}

// TestTooLongLine: a line over the cap is an error line; reading goes on.
func TestTooLongLine(t *testing.T) {
	defer claude.SetMaxLineSize(1 << 20)()
	script := filepath.Join(t.TempDir(), "toolong.jsonl")
	data := fmt.Sprintf(`{"type":"assistant","text":%q}`+"\n"+`{"type":"result","subtype":"success"}`+"\n",
		strings.Repeat("x", 2<<20))
	if err := os.WriteFile(script, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startFake(t, claude.Options{}, "FAKECLAUDE_SCRIPT="+script)
	if err := p.SendUser("go"); err != nil {
		t.Fatal(err)
	}
	var lines []claude.Line
	for l := range p.Lines() {
		lines = append(lines, l)
		if isResult(l) {
			break
		}
	}
	if len(lines) != 2 || !errors.Is(lines[0].Err, claude.ErrLineTooLong) || lines[0].Type != "" ||
		!strings.HasPrefix(string(lines[0].Raw), `{"type":"assistant"`) || len(lines[0].Raw) > 64<<10 {
		t.Fatalf("got %v, first err %v, %d bytes", types(lines), lines[0].Err, len(lines[0].Raw))
	}
}

// TestConcurrentWrites: writes from many goroutines stay whole lines.
func TestConcurrentWrites(t *testing.T) {
	p := startFake(t, claude.Options{})
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() { errs <- p.SendUser(fmt.Sprintf("message %d %s", i, strings.Repeat("x", 10_000))) })
		wg.Go(func() { _, err := p.Initialize(t.Context()); errs <- err })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for range n {
		lines := until(t, p, isResult)
		seen[strings.Fields(field(t, lines[len(lines)-1], "result"))[2]] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct turns, want %d", len(seen), n)
	}
}

// TestChildEnvironment: whatever environment the caller passes, the CLI
// (and so its tools) gets none of agentdesk's own variables, and gets the
// worker's marker; its identity is read at start.
func TestChildEnvironment(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\nenv >&2\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	p, err := claude.Start(t.Context(), claude.Options{
		Path:   cli,
		Env:    []string{"PATH=" + os.Getenv("PATH"), "AGENTDESK_TOKEN=secret", "AGENTDESK_WORKER=outer/run"},
		Marker: "w1/run1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if id := p.Ident(); id.Pid != p.Pid() || id.Start == 0 || id.Marker != "w1/run1" {
		t.Errorf("identity %+v", id)
	}
	if err := p.Close(t.Context()); err != nil { // stderr is complete once closed
		t.Fatal(err)
	}
	env := p.Stderr()
	if strings.Contains(env, "AGENTDESK_TOKEN") || strings.Contains(env, "outer/run") ||
		!strings.Contains(env, "AGENTDESK_WORKER=w1/run1\n") {
		t.Fatalf("CLI environment:\n%s", env)
	}
}
