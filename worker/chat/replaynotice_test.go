package chat

import (
	"encoding/json"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestReplayNotice: a tab that attaches during an import with a cursor far
// behind (none, or one before most of the imported messages) gets the
// imported messages it lacks as one history-appended notice in its replay,
// not as thousands of frames; a short gap is still replayed. Across its
// replay, the notice, the live notices and the marker, each tab learns
// every message exactly once and in stored order, and the notice stands
// for exactly the messages a REST page after the tab's cursor returns.
func TestReplayNotice(t *testing.T) {
	const n = 3*maxBatch + 10
	g := []historyGate{{at: 0}, {at: 2*maxBatch + 5}}
	for i := range g {
		g[i].reached, g[i].release = make(chan struct{}), make(chan struct{})
	}
	tr := &gatedTranscript{n: n, gates: g}
	h := newHarness(t, harnessOptions{conv: "c", driver: gatedDriver{Driver: agenttest.New(), tr: tr}})
	released := 0
	release := func() { close(g[released].release); released++ }
	t.Cleanup(func() { // a failed test lets the import end, so the harness stops
		for released < len(g) {
			release()
		}
	})
	<-g[0].reached
	watcher := attach(t, h.rt, "")
	release()
	<-g[1].reached
	// Two batches are produced; the watcher's notices say they are published.
	for range 2 {
		watcher.until(func(f frame) bool { return f.Type == "history-appended" })
	}
	cursors := map[string]int{"none": 0, "far": 10, "near": 2*maxBatch - replayNoticeMin + 1}
	tabs := map[string]*reader{}
	for name, from := range cursors {
		after := ""
		if from > 0 {
			after = gatedUUID(from - 1)
		}
		tabs[name] = attach(t, h.rt, after)
		notices, stored := 0, 0
		for _, f := range tabs[name].frames {
			switch {
			case f.Type == "history-appended":
				notices++
				if f.Count != 2*maxBatch-from || f.Last == nil || *f.Last != gatedUUID(2*maxBatch-1) {
					t.Fatalf("%s: replay notice %s", name, f.raw)
				}
				page, _, err := h.rt.MessagesBefore("", after, wire.PageMax)
				if err != nil {
					t.Fatal(err)
				}
				checkPage(t, page, from, 2*maxBatch)
			case f.stored():
				stored++
			}
		}
		far := 2*maxBatch-from >= replayNoticeMin
		if far && (notices != 1 || stored != 0) || !far && (notices != 0 || stored != 2*maxBatch-from) {
			t.Fatalf("%s: replay of %d notices and %d messages after %d", name, notices, stored, from)
		}
	}
	release()
	waitImported(t, h)
	for name, r := range tabs {
		r.seenOrUntil(isImportMarker)
		learnt := cursors[name]
		for _, f := range r.frames {
			switch {
			case f.Type == "history-appended":
				if f.Count <= 0 || f.Last == nil || *f.Last != gatedUUID(learnt+f.Count-1) {
					t.Fatalf("%s: notice %s after %d messages", name, f.raw, learnt)
				}
				learnt += f.Count
			case f.stored() && !isImportMarker(f):
				if f.Seq != uint64(learnt+1) || f.Message.UUID != gatedUUID(learnt) {
					t.Fatalf("%s: message %s (seq %d) after %d", name, f.Message.UUID, f.Seq, learnt)
				}
				learnt++
			}
		}
		if learnt != n {
			t.Fatalf("%s: %d messages learnt, want %d", name, learnt, n)
		}
	}
	// After the import, a cursor from before it gets the notice and then
	// the marker as a message; history-end names the marker.
	late := attach(t, h.rt, "")
	if k := kinds(late.frames); len(late.frames) < 3 || late.frames[0].Type != "history-appended" || late.frames[0].Count != n || !isImportMarker(late.frames[1]) || late.frames[2].Type != "history-end" {
		t.Fatalf("after the import: %s", k)
	}
}

// checkPage checks that page holds the messages from..to-1, in order.
func checkPage(t *testing.T, page []json.RawMessage, from, to int) {
	t.Helper()
	if len(page) != to-from {
		t.Fatalf("page after %d: %d messages, want %d", from, len(page), to-from)
	}
	for i, el := range page {
		var m struct {
			Message struct {
				UUID string `json:"uuid"`
			} `json:"message"`
		}
		if err := json.Unmarshal(el, &m); err != nil {
			t.Fatal(err)
		}
		if m.Message.UUID != gatedUUID(from+i) {
			t.Fatalf("page after %d: message %d is %s", from, i, m.Message.UUID)
		}
	}
}
