package chat

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// suspendAsking runs prompt until the CLI asks for a permission, then
// stops the worker as a server shutdown does (Suspend), and returns the
// request and the worker of the next server start, built on the same
// store as a restored worker.
func suspendAsking(t *testing.T, s *realSetup, prompt, mode string) (frame, *harness) {
	t.Helper()
	h1 := s.harness(t, harnessOptions{})
	if mode != "" {
		if err := h1.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: mode}); err != nil {
			t.Fatal(err)
		}
	}
	a1 := attach(t, h1.rt, "")
	send(t, h1, prompt)
	req := a1.until(isType("permission-request"))
	before := mainRequests(s)
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := h1.rt.Suspend(ctx); err != nil {
		t.Fatal(err)
	}
	for _, f := range a1.frames {
		if f.Type == "permission-resolved" {
			t.Fatalf("a shutdown answered the request: %s", f.raw)
		}
	}
	// The CLI did not go on with the model after the shutdown.
	if n := mainRequests(s); n != before {
		t.Fatalf("%d main-loop API requests after the shutdown, want %d", n, before)
	}
	h1.mu.Lock()
	started := h1.started > 0
	h1.mu.Unlock()
	h2 := s.harness(t, harnessOptions{store: h1.store, conv: h1.conv, started: started, restored: true})
	if mode != "" {
		if err := h2.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: mode}); err != nil {
			t.Fatal(err)
		}
	}
	return req, h2
}

func mainRequests(s *realSetup) int {
	n := 0
	for _, r := range s.api.MessageRequests() {
		if tools, _ := r.Body["tools"].([]any); len(tools) > 0 {
			n++
		}
	}
	return n
}

// pendingAgain checks that a new tab of the restarted worker gets the
// request exactly as before and that the worker is asking.
func pendingAgain(t *testing.T, h *harness, req frame) *reader {
	t.Helper()
	a := attach(t, h.rt, "")
	var got []frame
	for _, f := range a.frames {
		if f.Type == "permission-request" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || string(got[0].raw) != string(req.raw) {
		t.Fatalf("pending after the restart: %d frames, want the request %s", len(got), req.raw)
	}
	if a := h.rt.Activity(); a != worker.ActivityAsking {
		t.Fatalf("activity after the restart %q, want asking", a)
	}
	return a
}

// noMoreAsks fails when a (after the answer) saw another request.
func noMoreAsks(t *testing.T, a *reader, from int) {
	t.Helper()
	for _, f := range a.frames[from:] {
		if f.Type == "permission-request" {
			t.Errorf("asked again after the answer: %s", f.raw)
		}
	}
}

func storedPending(t *testing.T, h *harness) int {
	t.Helper()
	recs, err := h.store.Pending(h.info.ID)
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

// TestRealPendingBashAllowedAfterRestart: a Bash request pending at a
// shutdown is pending again after the restart; allowed then, the command
// runs (the model gets its result) and nobody is asked a second time.
func TestRealPendingBashAllowedAfterRestart(t *testing.T) {
	s := newReal(t)
	req, h2 := suspendAsking(t, s, "bash: touch restored.txt", "")
	if n := storedPending(t, h2); n != 1 {
		t.Fatalf("%d stored pending requests after the shutdown, want 1", n)
	}
	a2 := pendingAgain(t, h2, req)
	// Asking is busy: a message waits in the queue, and comes after the
	// answer.
	if err := h2.rt.Submit(t.Context(), "queued meanwhile", ""); err != nil {
		t.Fatal(err)
	}
	from := len(a2.frames)
	if err := h2.rt.RespondPermission(req.RequestID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	res := a2.until(isResult)
	recordResume(t, s, "resume-after-shutdown.json")
	a2.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "queued meanwhile") })
	users := storedUsers(t, h2)
	if len(users) != 3 || !strings.Contains(users[1], RestoredAllow) || users[2] != "queued meanwhile" {
		t.Errorf("stored user messages %q: the prompt, the answer, then the queued one", users)
	}
	if _, err := os.Stat(filepath.Join(s.cwd, "restored.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v (result %s)", err, res.raw)
	}
	if _, text := resultText(t, res); !strings.Contains(text, "`Bash` (ok)") {
		t.Errorf("the model did not get the command's result: %s", res.raw)
	}
	noMoreAsks(t, a2, from)
	if n := storedPending(t, h2); n != 0 {
		t.Errorf("%d stored pending requests after the answer", n)
	}
}

// TestRealPendingBashDeniedAfterRestart: denied after the restart, the
// command does not run and the model reads the reason.
func TestRealPendingBashDeniedAfterRestart(t *testing.T) {
	s := newReal(t)
	req, h2 := suspendAsking(t, s, "bash: touch denied.txt", "")
	a2 := pendingAgain(t, h2, req)
	from := len(a2.frames)
	if err := h2.rt.RespondPermission(req.RequestID, "deny", "not after a restart", nil); err != nil {
		t.Fatal(err)
	}
	a2.until(isResult)
	if _, err := os.Stat(filepath.Join(s.cwd, "denied.txt")); !os.IsNotExist(err) {
		t.Errorf("the denied command ran: %v", err)
	}
	if last := s.lastRequest(t).LastUserText(); !strings.Contains(last, "I deny it: not after a restart") {
		t.Errorf("the model did not get the denial: %q", last)
	}
	noMoreAsks(t, a2, from)
	if n := storedPending(t, h2); n != 0 {
		t.Errorf("%d stored pending requests after the answer", n)
	}
}

// TestRealPendingPlanApprovedAfterRestart: a plan pending across a
// restart, approved with auto-accept, sets the mode of the resumed CLI.
func TestRealPendingPlanApprovedAfterRestart(t *testing.T) {
	s := newReal(t)
	req, h2 := suspendAsking(t, s, "make a plan", "plan")
	if req.ToolName != "ExitPlanMode" {
		t.Fatalf("not a plan: %s", req.raw)
	}
	a2 := pendingAgain(t, h2, req)
	upd := json.RawMessage(`[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`)
	if err := h2.rt.AnswerPermission(req.RequestID, "allow", "", nil, upd); err != nil {
		t.Fatal(err)
	}
	a2.until(isResult)
	if m := h2.rt.settingsNow().PermissionMode; m != "acceptEdits" {
		t.Errorf("mode after the approval %q, want acceptEdits", m)
	}
	var mode string
	for _, f := range a2.frames {
		if f.Type == "sdk-message" && f.Message.Type == "system" && f.Message.Subtype == "init" {
			var l struct {
				PermissionMode string `json:"permissionMode"`
			}
			json.Unmarshal(f.Raw, &l)
			mode = l.PermissionMode
		}
	}
	if mode != "acceptEdits" {
		t.Errorf("the resumed CLI runs in %q, want acceptEdits", mode)
	}
	// The CLI tells the model itself that plan mode ended.
	if text := allText(s.lastRequest(t)); !strings.Contains(text, "I approve your plan") || !strings.Contains(text, "Exited Plan Mode") {
		t.Errorf("the model got no approval out of plan mode: %s", text)
	}
}

// recordResume keeps, under RECORD=1, what the resumed CLI sent the API
// for a session file that ends with an unanswered tool_use.
func recordResume(t *testing.T, s *realSetup, name string) {
	if os.Getenv("RECORD") == "" {
		return
	}
	// Each main-loop request's messages, texts cut short (the system
	// reminders are long and beside the point).
	type block struct{ Type, Text, Name, ToolUseID, Content string }
	var reqs [][]string
	for _, r := range s.api.MessageRequests() {
		if tools, _ := r.Body["tools"].([]any); len(tools) == 0 {
			continue
		}
		var lines []string
		for _, m := range r.Messages() {
			for _, b := range m.Blocks() {
				line := m.Role + " " + b.Type + " " + b.Name + " " + b.Text + string(b.Input) + string(b.Content)
				lines = append(lines, line[:min(len(line), 240)])
			}
		}
		reqs = append(reqs, lines)
	}
	msgs := reqs
	b, _ := json.MarshalIndent(msgs, "", " ")
	if err := os.WriteFile(filepath.Join("testdata", name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *Runtime) settingsNow() worker.Settings { return r.prefs.get() }

// TestRealPendingAfterCrash: the server dies (no Stop at all) while a
// Bash request waits, and its CLI with it (SIGKILL). The request was
// stored when it came, so the next start shows it; allowed, the resumed
// CLI runs the command. What --resume sends for the session file that
// ends with the unanswered tool_use is kept in testdata under RECORD=1.
func TestRealPendingAfterCrash(t *testing.T) {
	s := newReal(t)
	h1 := s.harness(t, harnessOptions{})
	a1 := attach(t, h1.rt, "")
	send(t, h1, "bash: touch crashed.txt")
	req := a1.until(isType("permission-request"))
	p := h1.rt.slot.retire() // a dead server reports nothing of its CLI's end
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	h1.rt.slot.readers.Wait() // the reader saw the end and left the records alone
	if n := storedPending(t, h1); n != 1 {
		t.Fatalf("%d stored pending requests after the crash, want 1", n)
	}
	h1.mu.Lock()
	started := h1.started > 0
	h1.mu.Unlock()
	// A second store handle on the same file is not possible while the
	// first is open; the restarted worker shares it, as after a restart.
	h2 := s.harness(t, harnessOptions{store: h1.store, conv: h1.conv, started: started, restored: true})
	a2 := pendingAgain(t, h2, req)
	from := len(a2.frames)
	if err := h2.rt.RespondPermission(req.RequestID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	res := a2.until(isResult)
	recordResume(t, s, "resume-after-crash.json")
	if _, err := os.Stat(filepath.Join(s.cwd, "crashed.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v (result %s)", err, res.raw)
	}
	noMoreAsks(t, a2, from)
}
