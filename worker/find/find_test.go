package find

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker"))
}

// sessions stands in for the manager: a list and a hub of changes.
type sessions struct {
	mu     sync.Mutex
	list   []worker.Session
	events *hub.Hub
}

func (s *sessions) Sessions() []worker.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]worker.Session(nil), s.list...)
}

func (s *sessions) Subscribe() (*hub.Sub, []byte, error) {
	sub, _ := s.events.Subscribe(16)
	return sub, nil, nil
}

// waitHits searches until the answer has n hits; the deadline only
// guards a failure.
func waitHits(t *testing.T, f *Finder, q, sid string, n int) []Hit {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		res, err := f.Search(q, 10, sid)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == n {
			return res.Hits
		}
		if time.Now().After(end) {
			t.Fatalf("search %q: %+v, want %d hits", q, res.Hits, n)
		}
	}
}

// The finder indexes what the sessions show (their titles, their
// workers' messages) and every message committed later, found by each
// worker's session; Close stops it before the store closes.
func TestFinderIndexesSessionsAndCommits(t *testing.T) {
	store, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m := &sessions{events: hub.New(0), list: []worker.Session{{
		ID: "s1", Title: "Deploy notes", CreatedAt: time.Now(),
		Workers: []worker.Info{{ID: "w1", SessionID: "s1", Kind: worker.KindSDK}},
	}}}
	f, err := Open(filepath.Join(t.TempDir(), "search"), store, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h := waitHits(t, f, "deploy", "", 1)[0]; h.SessionID != "s1" || h.Role != "title" {
		t.Fatalf("title hit: %+v", h)
	}
	line, _ := json.Marshal(map[string]any{"type": "user", "uuid": "u1", "timestamp": "2026-03-04T05:06:07Z",
		"message": map[string]any{"role": "user", "content": "rotate the certificates"}})
	frame, _ := json.Marshal(map[string]any{"type": "sdk-message", "seq": 1, "message": json.RawMessage(line)})
	if err := <-store.AppendMessages("w1", []persist.Message{{Seq: 1, UUID: "u1", Data: frame}}); err != nil {
		t.Fatal(err)
	}
	if h := waitHits(t, f, "certificates", "s1", 1)[0]; h.WorkerID != "w1" || h.UUID != "u1" || h.SessionID != "s1" {
		t.Fatalf("message hit: %+v", h)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestNewestFirst: a search hit opens the newest worker that holds the
// message, so the catalog lists a session's workers by creation time,
// newest first, whatever their ids say.
func TestNewestFirst(t *testing.T) {
	at := func(min int) time.Time { return time.Date(2026, 1, 2, 3, min, 5, 0, time.UTC) }
	ws := []worker.Info{{ID: "w9-first", CreatedAt: at(1)}, {ID: "w1-live", CreatedAt: at(4)},
		{ID: "w5-second", CreatedAt: at(2)}, {ID: "w3-third", CreatedAt: at(3)}}
	got := newestFirst(ws)
	want := []string{"w1-live", "w3-third", "w5-second", "w9-first"}
	if !slices.Equal(got, want) {
		t.Fatalf("newestFirst = %v, want %v", got, want)
	}
}
