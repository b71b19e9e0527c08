package chat

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

func TestMissingBinary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bin", "claude")
	h := newHarness(t, harnessOptions{path: path})
	a := attach(t, h.rt, "")
	err := h.rt.SendUser(t.Context(), "hello")
	if !errors.Is(err, worker.ErrClaudeAbsent) {
		t.Fatalf("SendUser without a CLI: %v, want ErrClaudeAbsent", err)
	}
	ef := a.until(isType("error"))
	if ef.Code != "claude_not_found" || !strings.Contains(ef.Text, "install") {
		t.Errorf("error frame: %s", ef.raw)
	}
	info := h.waitInfo(func(i worker.Info) bool { return i.Status == worker.StatusError })
	if info.Error == nil || *info.Error != ef.Text {
		t.Errorf("worker error %v, want the frame's message", info.Error)
	}
	turnEnded(t, h, a)
	if _, err := h.rt.HandleClient(t.Context(), []byte(`{"type":"user-message","content":"again"}`)); err != nil {
		t.Errorf("HandleClient after an error already shown: %v", err)
	}

	// Install it: the next message starts the CLI.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fakeBin, path); err != nil {
		t.Fatal(err)
	}
	send(t, h, "now")
	a.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "Echo: now") })
	h.waitInfo(func(i worker.Info) bool { return i.Status == worker.StatusRunning && i.Error == nil })
}

func TestExitAtStart(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	if err := os.WriteFile(h.flag(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a := attach(t, h.rt, "")
	if err := h.rt.SendUser(t.Context(), "hello"); err == nil {
		t.Fatal("SendUser succeeded with a CLI that exits at start")
	}
	ef := a.until(isType("error"))
	if ef.Code != "claude_exited" || !strings.Contains(ef.Text, "exiting at start with code 3") {
		t.Errorf("error frame: %s", ef.raw)
	}
	h.waitInfo(func(i worker.Info) bool {
		return i.Status == worker.StatusError && i.Error != nil && strings.Contains(*i.Error, "code 3")
	})
	turnEnded(t, h, a)
	os.Remove(h.flag())
	send(t, h, "retry")
	a.until(isResult)
	h.waitInfo(func(i worker.Info) bool { return i.Status == worker.StatusRunning })
	args := h.args()
	if len(args) != 2 || !strings.Contains(args[1], "--session-id "+h.conv) {
		t.Errorf("CLI args %q: a conversation that never ran starts with --session-id", args)
	}
}

// turnEnded checks that a failed start ended the turn: the tabs and the
// manager see idle, Cancel has nothing to do, and the error stays in the
// worker's record for tabs opened later.
func turnEnded(t *testing.T, h *harness, a *reader) {
	t.Helper()
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })
	h.waitInfo(func(i worker.Info) bool { return i.Activity != nil && *i.Activity == worker.ActivityIdle })
	if ok, err := h.rt.Cancel(t.Context()); ok || err != nil {
		t.Errorf("Cancel after a failed start: %v, %v; want nothing to cancel", ok, err)
	}
	if n := len(attach(t, h.rt, "").frames); n == 0 {
		t.Error("no replay")
	}
	if info := h.waitInfo(func(worker.Info) bool { return true }); info.Status != worker.StatusError || info.Error == nil {
		t.Errorf("worker %+v: the error is not kept", info)
	}
}

// TestCancelWhileStarting: Cancel while the CLI starts (this one never
// answers initialize) abandons the start and ends the turn without an
// error; the message stays stored and is not sent, and the next message
// starts the CLI again.
func TestCancelWhileStarting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "claude")
	hang := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$FAKE_ARGS_LOG\"\nexec cat >/dev/null\n"
	if err := os.WriteFile(path, []byte(hang), 0o755); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOptions{path: path})
	a := attach(t, h.rt, "")
	done := make(chan error, 1)
	go func() { done <- h.rt.SendUser(context.Background(), "hello") }()
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "active" })
	deadline := time.Now().Add(waitFor)
	for h.args()[0] == "" { // the CLI runs and waits
		if time.Now().After(deadline) {
			t.Fatal("the CLI never started")
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
	if ok, err := h.rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("Cancel while the CLI starts: %v, %v", ok, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("SendUser after Cancel: %v", err)
		}
	case <-time.After(waitFor):
		t.Fatal("SendUser still waits for the CLI after Cancel")
	}
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })
	if info := h.waitInfo(func(i worker.Info) bool { return i.Activity != nil && *i.Activity == worker.ActivityIdle }); info.Status != worker.StatusRunning || info.Error != nil {
		t.Errorf("worker after a cancelled start: %+v", info)
	}
	if msgs := storedFrames(t, h.store); len(msgs) != 1 {
		t.Errorf("log has %d messages, want the user message", len(msgs))
	}

	// A working CLI at the same path: the next message starts it.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fakeBin, path); err != nil {
		t.Fatal(err)
	}
	send(t, h, "again")
	res := a.until(isResult)
	if !strings.Contains(string(res.raw), "Echo: again") {
		t.Errorf("result %s", res.raw)
	}
}

func TestRestoredWorkerResumes(t *testing.T) {
	h1 := newHarness(t, harnessOptions{})
	send(t, h1, "hello")
	attach(t, h1.rt, "").until(isResult)
	h1.stop()
	if err := h1.rt.SendUser(t.Context(), "late"); !errors.Is(err, worker.ErrNotRunning) {
		t.Errorf("SendUser after Stop: %v, want ErrNotRunning", err)
	}
	before := storedFrames(t, h1.store)

	h2 := newHarness(t, harnessOptions{store: h1.store, conv: h1.conv, restored: true})
	a := attach(t, h2.rt, "")
	sameFrames(t, storedOf(a.frames), before)
	if he := a.frames[len(before)]; he.Type != "history-end" || he.Last == nil || *he.Last != before[len(before)-1].UUID {
		t.Fatalf("history-end after restore: %s", he.raw)
	}
	if len(h2.args()) != 1 || h2.args()[0] != "" {
		t.Fatalf("a restored worker started the CLI before any message: %q", h2.args())
	}
	send(t, h2, "again")
	res := a.until(isResult)
	if res.Seq != 8 {
		t.Errorf("result seq %d, want 8 (the log continues)", res.Seq)
	}
	if args := h2.args(); len(args) != 1 || !strings.Contains(args[0], "--resume "+h1.conv) {
		t.Errorf("restored CLI args %q, want --resume %s", args, h1.conv)
	}
	sameFrames(t, storedOf(a.frames), storedFrames(t, h2.store))
}

func TestCrashedCLIResumes(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	a.until(isResult)
	pid := h.rt.slot.pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ex := a.until(isType("exit"))
	if !strings.Contains(string(ex.raw), `"signal":"SIGKILL"`) {
		t.Errorf("exit frame: %s", ex.raw)
	}
	send(t, h, "after crash")
	a.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "after crash") })
	args := h.args()
	if len(args) != 2 || !strings.Contains(args[0], "--session-id") || !strings.Contains(args[1], "--resume "+h.conv) {
		t.Errorf("CLI args %q, want --session-id then --resume", args)
	}
}
