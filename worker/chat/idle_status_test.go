package chat

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestStatusLineWhileIdleBeginsNoTurn changes the mode of an idle chat:
// the CLI answers with a system/status line, which must not mark a turn as
// running (the chat would stay "working…" and queue every message behind
// a turn that never ends).
func TestStatusLineWhileIdleBeginsNoTurn(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	a.until(isResult)
	if err := h.rt.ApplySettings(t.Context(), worker.Settings{PermissionMode: "acceptEdits"}); err != nil {
		t.Fatal(err)
	}
	a.until(func(f frame) bool {
		return f.Type == "sdk-message" && f.Message.Type == "system" && f.Message.Subtype == "status"
	})
	if got := h.rt.Activity(); got != worker.ActivityIdle {
		t.Fatalf("activity after a status line while idle: %s", got)
	}
	if h.rt.journal.busy() {
		t.Fatal("the journal counts a turn after a status line while idle")
	}
}

// TestModelReplayWhileIdleBeginsNoTurn changes the model of an idle chat:
// the CLI prints a replayed user line ("Set model to …"), which must not
// mark a turn as running either.
func TestModelReplayWhileIdleBeginsNoTurn(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	a.until(isResult)
	if err := h.rt.ApplySettings(t.Context(), worker.Settings{Model: "sonnet"}); err != nil {
		t.Fatal(err)
	}
	a.until(func(f frame) bool {
		return f.Type == "sdk-message" && f.Message.Type == "user" && strings.Contains(string(f.Raw), "Set model to")
	})
	if got := h.rt.Activity(); got != worker.ActivityIdle || h.rt.journal.busy() {
		t.Fatalf("activity after a replayed line while idle: %s", got)
	}
}
