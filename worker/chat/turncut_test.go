package chat

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// isTurnCut is the note that closes a turn a restart cut.
func isTurnCut(f frame) bool {
	return f.Type == "sdk-message" && f.Message.Type == "system" && f.Message.Subtype == "agentdesk_turn_cut"
}

// TestTurnCutByRestart (issue 22, item 6): a turn that was running when
// the server went down (a stop with no result, as after a SIGKILL) is
// closed at the next start with a stored note, once; the worker is idle.
func TestTurnCutByRestart(t *testing.T) {
	h1 := newHarness(t, harnessOptions{env: []string{"FAKECLAUDE_HANG=1"}})
	a := attach(t, h1.rt, "")
	send(t, h1, "hello")
	a.until(func(f frame) bool { return strings.Contains(string(f.raw), "Working on: hello") })
	h1.stop()
	before := storedFrames(t, h1.store)

	h2 := newHarness(t, harnessOptions{store: h1.store, conv: h1.conv, restored: true})
	b := attach(t, h2.rt, "")
	b.seenOrUntil(isTurnCut)
	var cut frame
	for _, f := range b.frames {
		if isTurnCut(f) {
			cut = f
		}
	}
	if cut.Seq != uint64(len(before)+1) {
		t.Errorf("note at seq %d, want %d, right after the cut turn", cut.Seq, len(before)+1)
	}
	b.seenOrUntil(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })
	after := storedFrames(t, h2.store)
	h2.stop()

	// The next start finds the turn closed.
	h3 := newHarness(t, harnessOptions{store: h1.store, conv: h1.conv, restored: true})
	c := attach(t, h3.rt, "")
	c.seenOrUntil(isType("history-end"))
	if got := storedFrames(t, h3.store); len(got) != len(after) {
		t.Errorf("%d messages after a second restart, want %d: the note was added again", len(got), len(after))
	}
}

// TestTurnEdge: what ends a turn, what begins one, what says nothing.
func TestTurnEdge(t *testing.T) {
	tests := []struct {
		line          string
		open, decided bool
	}{
		{`{"type":"result","subtype":"success"}`, false, true},
		{`{"type":"system","subtype":"agentdesk_turn_cut"}`, false, true},
		{`{"type":"system","subtype":"agentdesk_imported","count":3}`, false, true},
		{`{"type":"user","message":{"role":"user","content":"hi"}}`, true, true},
		{`{"type":"assistant","message":{"role":"assistant","content":[]}}`, true, true},
		{`{"type":"user","agentdeskSource":"terminal","message":{}}`, false, false},
		{`{"type":"user","isReplay":true,"message":{}}`, false, false},
		{`{"type":"system","subtype":"init"}`, false, false},
		{`{"type":"rate_limit_event"}`, false, false},
	}
	r := &history{driver: claude.NewDriver(claude.Config{})} // its Records know the replays
	for _, tt := range tests {
		frame := []byte(`{"type":"sdk-message","seq":1,"message":` + tt.line + `}`)
		if open, decided := r.turnEdge(frame); open != tt.open || decided != tt.decided {
			t.Errorf("%s: open %v decided %v, want %v %v", tt.line, open, decided, tt.open, tt.decided)
		}
	}
}
