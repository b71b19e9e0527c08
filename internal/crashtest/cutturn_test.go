package crashtest

import (
	"testing"
	"time"
)

// TestCrashCutTurnIsMarked (issue 22, item 6): a SIGKILL of the server in
// the middle of a turn (the fake CLI printed the turn's start, then
// nothing: FAKECLAUDE_HANG) leaves a turn with no end in the log. The
// next start closes it with a stored note, "cut short by a restart",
// after the turn's last line; the worker is idle; a further restart adds
// no second note.
func TestCrashCutTurnIsMarked(t *testing.T) {
	data := t.TempDir()
	s := startServer(t, data, "FAKECLAUDE_HANG=1")
	w := newSession(t, s)
	rec := recordSDK(s.dial("/ws" + w.sdkPath()))
	s.mustJSON("POST", "/api"+w.sdkPath()+"/input", `{"content":"hello"}`, 202, nil)
	if !rec.waitFor(guard, func(msgs []message, _ int, _ []string) bool {
		return len(msgs) > 0 && msgs[len(msgs)-1].Type == "assistant"
	}) {
		t.Fatalf("the turn never started; stderr:\n%s", s.stderr)
	}
	s.kill()
	rec.close()
	before, _, _ := rec.snapshot() // each was stored before it was sent

	s = startServer(t, data)
	after := lines(t, s, w)
	if len(after) != len(before)+1 || after[len(after)-1] != "system/agentdesk_turn_cut/restart" {
		t.Fatalf("after the restart the log is %v, want the %d lines a client saw and the note", after, len(before))
	}
	waitIdle(t, s, w)
	s.stop()

	s = startServer(t, data)
	if again := lines(t, s, w); len(again) != len(after) {
		t.Fatalf("a second restart changed the log: %v", again)
	}
	s.stop()
}

// lines lists the stored messages of the sdk worker as type/subtype/reason.
func lines(t *testing.T, s *server, w ids) []string {
	t.Helper()
	var page struct {
		Messages []struct {
			Message struct{ Type, Subtype, Reason string }
		}
	}
	s.mustJSON("GET", "/api"+w.sdkPath()+"/messages?limit=100", "", 200, &page)
	var out []string
	for _, m := range page.Messages {
		l := m.Message.Type
		if m.Message.Subtype != "" {
			l += "/" + m.Message.Subtype
		}
		if m.Message.Reason != "" {
			l += "/" + m.Message.Reason
		}
		out = append(out, l)
	}
	return out
}

// waitIdle waits until the worker's activity is idle.
func waitIdle(t *testing.T, s *server, w ids) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		var wk struct{ Activity string }
		s.mustJSON("GET", "/api"+w.sdkPath(), "", 200, &wk)
		if wk.Activity == "idle" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("activity %q after the restart, want idle", wk.Activity)
		}
		time.Sleep(20 * time.Millisecond) // polls the worker; the deadline is only a guard
	}
}
