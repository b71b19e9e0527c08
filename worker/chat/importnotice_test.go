package chat

import (
	"fmt"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
)

// gatedDriver is a fake driver whose record of the conversation holds n
// messages and stops before message i of each gate until the test lets it
// go on.
type gatedDriver struct {
	*agenttest.Driver
	tr *gatedTranscript
}

func (d gatedDriver) History(agent.Options) (agent.Transcript, error) { return d.tr, nil }

type historyGate struct {
	at      int
	reached chan struct{}
	release chan struct{}
}

type gatedTranscript struct {
	n     int
	gates []historyGate
}

func gatedUUID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

func (g *gatedTranscript) Read(fn func(agent.HistoryMessage) error) (agent.HistoryStats, error) {
	for i := range g.n {
		for _, gt := range g.gates {
			if gt.at == i {
				close(gt.reached)
				<-gt.release
			}
		}
		raw := fmt.Sprintf(`{"type":"user","message":{"role":"user","content":"m%d"},"uuid":%q,"session_id":"c"}`, i, gatedUUID(i))
		if err := fn(agent.HistoryMessage{Type: "user", UUID: gatedUUID(i), Raw: []byte(raw)}); err != nil {
			return agent.HistoryStats{}, err
		}
	}
	return agent.HistoryStats{}, nil
}

func (g *gatedTranscript) ReadNew(func(agent.HistoryMessage) error) error { return nil }
func (g *gatedTranscript) Written() bool                                  { return false }
func (g *gatedTranscript) Notes() agent.WriterNotes                       { return agent.WriterNotes{} }

// TestImportNotices: a tab attached while a history is imported gets each
// imported batch as one history-appended notice (count, last uuid), not a
// frame per message, then the import's marker as a message; what it did
// not get in its replay is covered by the notices exactly (no message
// missing or twice), and the notice's uuid is a cursor to resume from.
func TestImportNotices(t *testing.T) {
	const n = 2*maxBatch + 10
	g := []historyGate{{at: 0}, {at: maxBatch + 50}}
	for i := range g {
		g[i].reached, g[i].release = make(chan struct{}), make(chan struct{})
	}
	tr := &gatedTranscript{n: n, gates: g}
	h := newHarness(t, harnessOptions{conv: "c", driver: gatedDriver{Driver: agenttest.New(), tr: tr}})
	<-g[0].reached
	first := attach(t, h.rt, "") // before anything is stored
	close(g[0].release)
	<-g[1].reached
	mid := attach(t, h.rt, "") // one batch produced: in the replay or in a notice
	close(g[1].release)
	isMarker := func(f frame) bool { return f.Type == "sdk-message" && f.Message.Subtype == "agentdesk_imported" }
	first.until(isMarker)
	mid.until(isMarker)
	waitImported(t, h)
	for name, r := range map[string]*reader{"first": first, "mid": mid} {
		learnt, notices := 0, 0 // the messages the tab learnt, one by one or by a notice's count
		for _, f := range r.frames {
			switch {
			case f.Type == "history-appended":
				notices++
				if f.Count <= 0 || f.Count > maxBatch || f.Last == nil || *f.Last != gatedUUID(learnt+f.Count-1) {
					t.Fatalf("%s: notice %s after %d messages", name, f.raw, learnt)
				}
				learnt += f.Count
			case f.stored() && !isMarker(f):
				if f.Seq != uint64(learnt+1) || f.Message.UUID != gatedUUID(learnt) {
					t.Fatalf("%s: message %s (seq %d) after %d", name, f.Message.UUID, f.Seq, learnt)
				}
				learnt++
			}
		}
		if learnt != n {
			t.Fatalf("%s: %d messages learnt, want %d", name, learnt, n)
		}
		if name == "first" && notices != 3 {
			t.Errorf("first: %d notices, want one per batch (3)", notices)
		}
	}
	// The last notice's uuid resumes at the marker.
	after := attach(t, h.rt, gatedUUID(n-1))
	if s := storedOf(after.frames); len(s) != 1 || !isMarker(decode(t, s[0])) {
		t.Fatalf("resumed after the last notice: %d messages", len(s))
	}
}
