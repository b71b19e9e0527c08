package chat

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
	"github.com/agentdesk/agentdesk/worker"
)

// These tests run the whole engine with the Codex driver: the real, pinned
// CLI (node_modules/.bin/codex) against the fake Responses API, in a
// throwaway CODEX_HOME (fakeopenai.CodexEnv), all on loopback. They skip
// loudly when the CLI is not installed, and fail then under CI=true.

type codexSetup struct {
	api      *fakeopenai.Server
	bin, cwd string
	env      []string
}

func newCodexSetup(t *testing.T) *codexSetup {
	t.Helper()
	bin := fakeopenai.RequireCodex(t)
	api := fakeopenai.New(t)
	dir := t.TempDir()
	cwd := filepath.Join(dir, "work")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	return &codexSetup{api: api, bin: bin, cwd: cwd, env: api.CodexEnv(t, dir)}
}

func (s *codexSetup) harness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	o.driver = codex.NewDriver(codex.Config{Path: s.bin})
	o.path, o.baseEnv, o.cwd = s.bin, s.env, s.cwd
	return newHarness(t, o)
}

// restart suspends h's worker (a server shutdown) and returns the worker
// of the next start on the same store, restored with the conversation h
// recorded.
func (s *codexSetup) restart(t *testing.T, h *harness) *harness {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := h.rt.Suspend(ctx); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	conv, started := h.conv, h.started > 0
	h.mu.Unlock()
	return s.harness(t, harnessOptions{store: h.store, conv: conv, started: started, restored: true})
}

// resultOf is a result frame's subtype and text.
func resultOf(t *testing.T, f frame) (string, string) { return resultText(t, f) }

// TestCodexChatTurnsAndCatchUp: a Codex chat's turn is stored message by
// message with uuids; the conversation recorded is the thread Codex named;
// a tab attached after a message gets the rest; the follow-up goes to the
// same thread (the model sees the first turn).
func TestCodexChatTurnsAndCatchUp(t *testing.T) {
	s := newCodexSetup(t)
	h := s.harness(t, harnessOptions{})
	h.mu.Lock()
	placeholder := h.conv
	h.mu.Unlock()
	a := attach(t, h.rt, "")
	send(t, h, "hello there")
	res := a.until(isResult)
	if sub, text := resultOf(t, res); sub != "success" || !strings.HasPrefix(text, "Echo: hello there") {
		t.Fatalf("first result %s", res.raw)
	}
	h.mu.Lock()
	thread := h.conv
	h.mu.Unlock()
	if thread == "" || thread == placeholder {
		t.Fatalf("recorded conversation %q (placeholder %q): want the thread Codex named", thread, placeholder)
	}
	stored := storedOf(a.frames)
	if len(stored) < 3 {
		t.Fatalf("stored %d messages, want the user's, the init, the text and the result: %s", len(stored), kinds(a.frames))
	}
	sameFrames(t, stored, storedFrames(t, h.store))
	var first frame
	for _, f := range a.frames {
		if f.stored() {
			first = f
			break
		}
	}
	if first.Message.Type != "user" || first.Message.UUID == "" {
		t.Fatalf("first stored message %s", first.raw)
	}
	b := attach(t, h.rt, first.Message.UUID)
	if got, want := len(storedOf(b.frames)), len(stored)-1; got != want {
		t.Fatalf("catch-up after the first message: %d messages, want %d", got, want)
	}
	send(t, h, "second question")
	res = a.until(isResult)
	if sub, text := resultOf(t, res); sub != "success" || !strings.HasPrefix(text, "Echo: second question") {
		t.Fatalf("second result %s", res.raw)
	}
	reqs := s.api.ResponseRequests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(string(last.RawBody), "hello there") {
		t.Fatalf("the follow-up did not continue the thread: %s", last.RawBody)
	}
}

// TestCodexChatApprovals: with the untrusted policy a command is a
// permission request of the chat; allowed, it runs and its card ends; a
// denied one does not run; "allow for this session" is Codex's one
// suggestion and lets the same command run again without asking.
func TestCodexChatApprovals(t *testing.T) {
	s := newCodexSetup(t)
	h := s.harness(t, harnessOptions{})
	if err := h.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: "untrusted"}); err != nil {
		t.Fatal(err)
	}
	a := attach(t, h.rt, "")
	send(t, h, "bash: echo hi > allowed.txt")
	req := a.until(isType("permission-request"))
	if req.ToolName != "Bash" || !strings.Contains(string(req.Input), "allowed.txt") {
		t.Fatalf("request %s", req.raw)
	}
	if a := h.rt.Activity(); a != worker.ActivityAsking {
		t.Fatalf("activity %q while asking", a)
	}
	if err := h.rt.RespondPermission(req.RequestID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	a.until(isResult)
	if _, err := os.Stat(filepath.Join(s.cwd, "allowed.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}

	send(t, h, "bash: echo no > denied.txt")
	req = a.until(isType("permission-request"))
	if err := h.rt.RespondPermission(req.RequestID, "deny", "not this one", nil); err != nil {
		t.Fatal(err)
	}
	a.until(isResult)
	if _, err := os.Stat(filepath.Join(s.cwd, "denied.txt")); !os.IsNotExist(err) {
		t.Fatalf("the denied command ran: %v", err)
	}

	send(t, h, "bash: touch session.txt")
	req = a.until(isType("permission-request"))
	var perm struct {
		Suggestions json.RawMessage `json:"permissionSuggestions"`
	}
	if err := json.Unmarshal(req.raw, &perm); err != nil || len(perm.Suggestions) == 0 {
		t.Fatalf("no session suggestion in %s", req.raw)
	}
	if err := h.rt.AnswerPermission(req.RequestID, "allow", "", nil, perm.Suggestions); err != nil {
		t.Fatal(err)
	}
	a.until(isResult)
	from := len(a.frames)
	send(t, h, "bash: touch session.txt")
	a.until(isResult)
	noMoreAsks(t, a, from)
	if err := h.rt.AnswerPermission("nope", "allow", "", nil, json.RawMessage(`[{"type":"setMode","mode":"never","destination":"session"}]`)); err == nil {
		t.Fatal("an update Codex does not take was accepted")
	}
}

// TestCodexChatRestartResumes: a restart keeps every committed message and
// the next message goes to the same thread, resumed.
func TestCodexChatRestartResumes(t *testing.T) {
	s := newCodexSetup(t)
	h1 := s.harness(t, harnessOptions{})
	a1 := attach(t, h1.rt, "")
	send(t, h1, "remember the word apricot")
	a1.until(isResult)
	before := storedOf(a1.frames)
	h1.mu.Lock()
	thread := h1.conv
	h1.mu.Unlock()

	h2 := s.restart(t, h1)
	a2 := attach(t, h2.rt, "")
	if got := storedOf(a2.frames); len(got) != len(before) {
		t.Fatalf("after the restart %d messages, want the %d committed", len(got), len(before))
	}
	send(t, h2, "what was the word")
	res := a2.until(isResult)
	if sub, _ := resultOf(t, res); sub != "success" {
		t.Fatalf("result after the restart %s", res.raw)
	}
	h2.mu.Lock()
	now := h2.conv
	h2.mu.Unlock()
	if now != "" {
		t.Fatalf("a new conversation %q was recorded after the restart, want the thread %q resumed", now, thread)
	}
	reqs := s.api.ResponseRequests()
	if last := reqs[len(reqs)-1]; !strings.Contains(string(last.RawBody), "apricot") {
		t.Fatalf("the resumed thread lost the first turn: %s", last.RawBody)
	}
}

// TestCodexChatPendingAcrossRestart: an approval pending at a shutdown is
// pending again after the restart; allowed then, the resumed Codex runs
// the command and nobody is asked a second time.
func TestCodexChatPendingAcrossRestart(t *testing.T) {
	s := newCodexSetup(t)
	h1 := s.harness(t, harnessOptions{})
	if err := h1.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: "untrusted"}); err != nil {
		t.Fatal(err)
	}
	a1 := attach(t, h1.rt, "")
	send(t, h1, "bash: touch restored.txt")
	req := a1.until(isType("permission-request"))
	h2 := s.restart(t, h1)
	if err := h2.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: "untrusted"}); err != nil {
		t.Fatal(err)
	}
	a2 := pendingAgain(t, h2, req)
	from := len(a2.frames)
	if err := h2.rt.RespondPermission(req.RequestID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	a2.until(isResult)
	noMoreAsks(t, a2, from)
	if _, err := os.Stat(filepath.Join(s.cwd, "restored.txt")); err != nil {
		t.Fatalf("the command allowed after the restart did not run: %v", err)
	}
}

// TestCodexChatCancelThenTurn: Cancel interrupts the running turn (the
// thread stays) and the next message gets its answer.
func TestCodexChatCancelThenTurn(t *testing.T) {
	s := newCodexSetup(t)
	s.api.SlowDelay = time.Hour // the reply stops after its first chunk
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "be slow")
	a.until(func(f frame) bool { return strings.Contains(string(f.raw), "slow chunk 00") })
	if _, err := h.rt.Cancel(t.Context()); err != nil {
		t.Fatal(err)
	}
	if sub, _ := resultOf(t, a.until(isResult)); sub != "error_during_execution" {
		t.Fatalf("cancelled turn ended %q", sub)
	}
	send(t, h, "after the cancel")
	if sub, text := resultOf(t, a.until(isResult)); sub != "success" || !strings.HasPrefix(text, "Echo: after the cancel") {
		t.Fatalf("next turn %q %q", sub, text)
	}
}

// TestCodexChatAPIDownStallsAndStops: with the API down Codex retries for
// ever; its retries are shown, the silent turn is marked stalled, and
// Stop ends it all.
func TestCodexChatAPIDownStallsAndStops(t *testing.T) {
	s := newCodexSetup(t)
	clk := newFakeClock()
	h := s.harness(t, harnessOptions{clock: clk, stall: stallAfter})
	a := attach(t, h.rt, "")
	if err := s.api.SetDown(true); err != nil {
		t.Fatal(err)
	}
	send(t, h, "hello while down")
	a.until(func(f frame) bool { return f.stored() && f.Message.Subtype == "api_retry" })
	clk.waitTimer(t, stallAfter)
	clk.advance(stallAfter)
	a.until(isActivity(worker.ActivityStalled))
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := h.rt.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if p := h.rt.slot.current(); p != nil {
		t.Fatalf("Codex (pid %d) still runs after Stop", p.Ident().Pid)
	}
}
