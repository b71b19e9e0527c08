package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// oneTurn runs one built-in turn and returns the log.
func oneTurn(t *testing.T, h *harness) []persist.Message {
	t.Helper()
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	a.until(isResult)
	return storedFrames(t, h.store)
}

func TestAttachUnknownAfterResets(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	msgs := oneTurn(t, h)
	r := attach(t, h.rt, "no-such-uuid")
	if r.frames[0].Type != "reset" {
		t.Fatalf("first frame %s, want reset", r.frames[0].raw)
	}
	sameFrames(t, storedOf(r.frames), msgs)
	if he := r.frames[len(msgs)+1]; he.Type != "history-end" || *he.Last != msgs[len(msgs)-1].UUID {
		t.Errorf("history-end: %s", he.raw)
	}
}

func TestRequestHistory(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	msgs := oneTurn(t, h)
	cases := []struct {
		name, after string
		from        int // index of the first message replayed
		reset       bool
	}{
		{"from start", "", 0, false},
		{"after second", msgs[1].UUID, 2, false},
		{"after last", msgs[len(msgs)-1].UUID, len(msgs), false},
		{"unknown", "nope", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := h.rt.HandleClient(t.Context(), []byte(fmt.Sprintf(`{"type":"request-history","after":%q}`, c.after)))
			if err != nil || st == nil {
				t.Fatalf("request-history: %v, %v", st, err)
			}
			defer st.Close()
			r := replay(t, st)
			if got := len(r.frames) > 0 && r.frames[0].Type == "reset"; got != c.reset {
				t.Errorf("reset frame %v, want %v", got, c.reset)
			}
			sameFrames(t, storedOf(r.frames), msgs[c.from:])
			var he *frame
			for i := range r.frames {
				if r.frames[i].Type == "history-end" {
					he = &r.frames[i]
				}
			}
			if he == nil || he.Last == nil || *he.Last != msgs[len(msgs)-1].UUID {
				t.Errorf("history-end missing or wrong: %s", rawList(r.frames))
			}
		})
	}
}

func TestMessages(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	msgs := oneTurn(t, h)
	cases := []struct {
		name, after string
		limit       int
		seqs        []uint64
		more        bool
	}{
		{"all", "", 0, []uint64{1, 2, 3, 4}, false},
		{"page", msgs[0].UUID, 2, []uint64{2, 3}, true},
		{"tail", msgs[2].UUID, 5, []uint64{4}, false},
		{"after last", msgs[3].UUID, 0, nil, false},
		{"limit over max", "", wire.PageMax + 10, []uint64{1, 2, 3, 4}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, more, err := h.rt.Messages(c.after, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if more != c.more || len(got) != len(c.seqs) {
				t.Fatalf("got %d messages, more %v; want %v, %v", len(got), more, c.seqs, c.more)
			}
			for i, el := range got {
				var m map[string]json.RawMessage
				if err := json.Unmarshal(el, &m); err != nil {
					t.Fatal(err)
				}
				var seq uint64
				json.Unmarshal(m["seq"], &seq)
				if _, typed := m["type"]; typed || seq != c.seqs[i] || m["message"] == nil {
					t.Errorf("element %d: %s", i, el)
				}
				if seq == 3 && m["html"] == nil {
					t.Errorf("assistant element has no html: %s", el)
				}
			}
		})
	}
	if _, _, err := h.rt.Messages("nope", 0); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("unknown after: %v, want ErrNotFound", err)
	}
}

// TestMessagesBefore pages backwards: the newest page first, then the ones
// before a uuid, bounded below by after, with whether older ones remain.
func TestMessagesBefore(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	msgs := oneTurn(t, h)
	cases := []struct {
		name, before, after string
		limit               int
		seqs                []uint64
		more                bool
	}{
		{"newest page", "", "", 2, []uint64{3, 4}, true},
		{"all", "", "", 0, []uint64{1, 2, 3, 4}, false},
		{"before a uuid", msgs[2].UUID, "", 1, []uint64{2}, true},
		{"before the second", msgs[1].UUID, "", 5, []uint64{1}, false},
		{"before the first", msgs[0].UUID, "", 5, nil, false},
		{"between two", msgs[3].UUID, msgs[0].UUID, 5, []uint64{2, 3}, false},
		{"between two, paged", msgs[3].UUID, msgs[0].UUID, 1, []uint64{3}, true},
		{"nothing between", msgs[1].UUID, msgs[0].UUID, 5, nil, false},
		{"after only", "", msgs[1].UUID, 5, []uint64{3, 4}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, more, err := h.rt.MessagesBefore(c.before, c.after, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, el := range got {
				var m struct {
					Seq     uint64          `json:"seq"`
					Message json.RawMessage `json:"message"`
					Type    *string         `json:"type"`
				}
				if err := json.Unmarshal(el, &m); err != nil || m.Type != nil || m.Message == nil {
					t.Fatalf("element %s: %v", el, err)
				}
				seqs = append(seqs, m.Seq)
			}
			if fmt.Sprint(seqs) != fmt.Sprint(c.seqs) || more != c.more {
				t.Errorf("got %v, more %v; want %v, %v", seqs, more, c.seqs, c.more)
			}
		})
	}
	for _, bad := range [][2]string{{"nope", ""}, {"", "nope"}} {
		if _, _, err := h.rt.MessagesBefore(bad[0], bad[1], 0); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("unknown cursor %q: %v, want ErrNotFound", bad, err)
		}
	}
}

// collect reads a stream: the replay, then live frames until stop returns
// true for one. It keeps raw bytes and decodes only to test stop, to keep
// up with a flood even under -race. It may run in any goroutine.
func collect(st *hub.Stream, stop func(frame) bool) ([][]byte, error) {
	var out [][]byte
	done := false
	err := st.Replay(func(hf hub.Frame) error {
		out = append(out, hf.Data)
		if f, err := quickDecode(hf.Data); err == nil && stop(f) {
			done = true // a reattachment can find the end in the replay
		}
		return nil
	})
	if err != nil || done {
		return out, err
	}
	for {
		hf, err := st.Sub.Recv(context.Background())
		if err != nil {
			return out, errKicked
		}
		out = append(out, hf.Data)
		f, err := quickDecode(hf.Data)
		if err != nil {
			return out, err
		}
		if stop(f) {
			return out, nil
		}
	}
}

var errKicked = errors.New("kicked")

// quickDecode decodes a frame without failing the test, for goroutines.
func quickDecode(b []byte) (frame, error) {
	var f frame
	if err := json.Unmarshal(b, &f); err != nil {
		return f, err
	}
	if f.Type == "sdk-message" {
		if err := json.Unmarshal(f.Raw, &f.Message); err != nil {
			return f, err
		}
	}
	f.raw = b
	return f, nil
}

// follow is a client that attaches after a cursor and, when kicked for
// being slow, reattaches after the last stored message it got, as the
// browser does. It returns the stored frames it saw and how often it was
// kicked.
func follow(ctx context.Context, rt *Runtime, st *hub.Stream, after string, stop func(frame) bool) ([][]byte, int, error) {
	var stored [][]byte
	kicks := 0
	for range 100 {
		raw, err := collect(st, stop)
		st.Close()
		for _, b := range raw {
			var f frame
			json.Unmarshal(b, &f)
			if f.Type == "reset" {
				return stored, kicks, fmt.Errorf("reset after %q", after)
			}
			if f.Type == "sdk-message" {
				json.Unmarshal(f.Raw, &f.Message)
				if f.stored() {
					stored, after = append(stored, b), f.Message.UUID
				}
			}
		}
		if !errors.Is(err, errKicked) {
			return stored, kicks, err
		}
		kicks++
		if st, err = rt.Attach(ctx, after); err != nil {
			return stored, kicks, err
		}
	}
	return stored, kicks, errors.New("kicked 100 times")
}

func TestAttachMidStream(t *testing.T) {
	const lines = 5000
	h := newHarness(t, harnessOptions{env: []string{fmt.Sprintf("FAKECLAUDE_FLOOD=%d", lines)}})
	type result struct {
		after  string
		stored [][]byte
		kicks  int
		err    error
	}
	results := make(chan result, 8)
	start := func(after string) {
		st, err := h.rt.Attach(t.Context(), after)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			stored, kicks, err := follow(context.Background(), h.rt, st, after, isResult)
			results <- result{after, stored, kicks, err}
		}()
	}
	start("") // connected before the turn
	send(t, h, "flood")
	deadline := time.Now().Add(waitFor)
	for i, mark := range []uint64{5, 300, 1500, 3000, 4500} {
		for h.rt.journal.published() < mark {
			if time.Now().After(deadline) {
				t.Fatalf("seq %d never published", mark)
			}
			time.Sleep(50 * time.Microsecond)
		}
		// Alternate cursors: from the start, and after a message seen.
		after := ""
		if i%2 == 1 {
			msgs, err := h.store.MessagesAfter("w1", mark-3, 1)
			if err != nil {
				t.Fatal(err)
			}
			after = msgs[0].UUID
		}
		start(after)
	}
	for range 6 {
		res := <-results
		if res.err != nil {
			t.Fatalf("attachment after %q: %v", res.after, res.err)
		}
		var from uint64
		if res.after != "" {
			seq, err := h.store.SeqOf("w1", res.after)
			if err != nil {
				t.Fatal(err)
			}
			from = seq
		}
		want, err := h.store.MessagesAfter("w1", from, 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.kicks > 0 {
			t.Logf("attachment after %q was kicked %d times and caught up", res.after, res.kicks)
		}
		sameFrames(t, res.stored, want)
	}
	if n, _ := h.store.MessageCount("w1"); n != lines+3 {
		t.Errorf("log has %d messages, want %d", n, lines+3)
	}
}

func TestAfterStop(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	msgs := oneTurn(t, h)
	h.stop()
	h.stop() // idempotent
	r := attach(t, h.rt, "")
	sameFrames(t, storedOf(r.frames), msgs)
	if got, _, err := h.rt.Messages("", 0); err != nil || len(got) != len(msgs) {
		t.Errorf("Messages after Stop: %d, %v", len(got), err)
	}
	if _, err := h.rt.HandleClient(t.Context(), []byte(`{"type":"user-message","content":"x"}`)); !errors.Is(err, worker.ErrNotRunning) {
		t.Errorf("user-message after Stop: %v, want ErrNotRunning", err)
	}
}
