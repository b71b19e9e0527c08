package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// storedUsers returns the text of every stored user message sent through
// agentdesk, in log order.
func storedUsers(t *testing.T, h *harness) []string {
	t.Helper()
	var out []string
	for _, m := range storedFrames(t, h.store) {
		var f struct {
			Message struct {
				Type    string `json:"type"`
				Message struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			} `json:"message"`
		}
		if err := json.Unmarshal(m.Data, &f); err != nil {
			t.Fatal(err)
		}
		var s string
		if f.Message.Type == "user" && json.Unmarshal(f.Message.Message.Content, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// queueOf decodes a queue frame's contents.
func queueOf(t *testing.T, f frame) []string {
	t.Helper()
	var q struct {
		Items []wire.QueueItem `json:"items"`
	}
	if err := json.Unmarshal(f.raw, &q); err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, it := range q.Items {
		out = append(out, it.Content)
	}
	return out
}

// TestRealQueueSurvivesRestart: three messages queued while a slow turn
// runs reach the real CLI one turn each, in order, after a restart of the
// server in the middle of the turn; none is written to the CLI mid-turn.
func TestRealQueueSurvivesRestart(t *testing.T) {
	s := newReal(t)
	s.api.SlowChunks, s.api.SlowDelay = 2000, 50*time.Millisecond // ends only by the stop
	h1 := s.harness(t, harnessOptions{})
	a1 := attach(t, h1.rt, "")
	send(t, h1, "be slow please")
	a1.until(func(f frame) bool { return f.Type == "sdk-message" && f.Message.Type == "stream_event" })
	for _, c := range []string{"queued one", "queued two", "queued three"} {
		if err := h1.rt.Submit(t.Context(), c, ""); err != nil {
			t.Fatal(err)
		}
	}
	q := a1.until(func(f frame) bool { return f.Type == "queue" && len(queueOf(t, f)) == 3 })
	if got := strings.Join(queueOf(t, q), ","); got != "queued one,queued two,queued three" {
		t.Fatalf("queue frame %s", q.raw)
	}
	if n := len(s.api.MessageRequests()); n != 1 {
		t.Fatalf("%d requests reached the API mid-turn, want 1 (the queue waits)", n)
	}
	h1.stop() // the server stops in the middle of the turn

	h1.mu.Lock()
	started := h1.started > 0
	h1.mu.Unlock()
	h2 := s.harness(t, harnessOptions{store: h1.store, conv: h1.conv, started: started, restored: true})
	a2 := attach(t, h2.rt, "")
	var results []string
	for len(results) < 3 {
		res := a2.until(isResult)
		_, text := resultText(t, res)
		results = append(results, text)
	}
	for i, w := range []string{"Echo: queued one", "Echo: queued two", "Echo: queued three"} {
		if !strings.Contains(results[i], w) {
			t.Errorf("turn %d after the restart answered %q, want %q", i+1, results[i], w)
		}
	}
	users := strings.Join(storedUsers(t, h2), ",")
	if users != "be slow please,queued one,queued two,queued three" {
		t.Errorf("stored user messages %q: each queued item once, in order", users)
	}
	if items, err := h2.rt.Queue(); err != nil || len(items) != 0 {
		t.Errorf("queue after delivery: %v %v", items, err)
	}
	// Each queued message was its own request, after the previous reply.
	var prompts []string
	for _, r := range s.api.MessageRequests() {
		if tools, _ := r.Body["tools"].([]any); len(tools) > 0 {
			prompts = append(prompts, r.LastUserText())
		}
	}
	if got := strings.Join(prompts, ","); !strings.HasSuffix(got, "queued one,queued two,queued three") {
		t.Errorf("API prompts in order %q", got)
	}
}

// TestRealWhenDuringTurn: while a turn runs, a message without "when"
// waits in the queue (nothing stored, nothing sent) and "now" goes into
// the running turn at once; the queued one is the turn after.
func TestRealWhenDuringTurn(t *testing.T) {
	s := newReal(t)
	s.api.SlowChunks, s.api.SlowDelay = 40, 50*time.Millisecond
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "be slow please")
	a.until(func(f frame) bool { return f.Type == "sdk-message" && f.Message.Type == "stream_event" })
	if err := h.rt.Submit(t.Context(), "queued later", ""); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(storedUsers(t, h), ","); got != "be slow please" {
		t.Fatalf("a queued message was stored as sent: %q", got)
	}
	if err := h.rt.Submit(t.Context(), "steer now", wire.WhenNow); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(storedUsers(t, h), ","); got != "be slow please,steer now" {
		t.Fatalf("stored user messages after now: %q", got)
	}
	a.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "Echo: queued later") })
	if got := strings.Join(storedUsers(t, h), ","); got != "be slow please,steer now,queued later" {
		t.Errorf("stored user messages %q", got)
	}
}
