package find

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
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
	f := New(filepath.Join(t.TempDir(), "search"), store, m, nil)
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

// userFrame is a stored user message saying text.
func userFrame(uuid, text string) []byte {
	line, _ := json.Marshal(map[string]any{"type": "user", "uuid": uuid, "timestamp": "2026-03-04T05:06:07Z",
		"message": map[string]any{"role": "user", "content": text}})
	frame, _ := json.Marshal(map[string]any{"type": "sdk-message", "seq": 1, "message": json.RawMessage(line)})
	return frame
}

// The index is not opened (nor its directory made) until it is first
// used; the first search opens it and finds what a previous run stored.
func TestIndexOpensOnFirstSearch(t *testing.T) {
	store, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := <-store.AppendMessages("w1", []persist.Message{{Seq: 1, UUID: "u1", Data: userFrame("u1", "migrate the ledger")}}); err != nil {
		t.Fatal(err)
	}
	m := &sessions{events: hub.New(0), list: []worker.Session{{ID: "s1", Title: "Books", CreatedAt: time.Now(),
		Workers: []worker.Info{{ID: "w1", SessionID: "s1", Kind: worker.KindSDK}}}}}
	dir := filepath.Join(t.TempDir(), "search")
	f := New(dir, store, m, nil)
	if f.Opened() {
		t.Fatal("the index is open before its first use")
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the index directory exists before its first use: %v", err)
	}
	if h := waitHits(t, f, "ledger", "", 1)[0]; h.WorkerID != "w1" || h.UUID != "u1" {
		t.Fatalf("hit: %+v", h)
	}
	if !f.Opened() {
		t.Fatal("a search answered without an open index")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Search("ledger", 10, ""); err == nil {
		t.Fatal("a search after Close answered")
	}
}

// A commit of messages opens the index without waiting for a search, so
// what this run stores is indexed as it comes; a finder never used closes
// without opening it.
func TestCommitOpensIndex(t *testing.T) {
	store, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m := &sessions{events: hub.New(0), list: []worker.Session{{ID: "s1", Title: "Ops", CreatedAt: time.Now(),
		Workers: []worker.Info{{ID: "w1", SessionID: "s1", Kind: worker.KindSDK}}}}}
	unused := New(filepath.Join(t.TempDir(), "unused"), store, m, nil)
	if err := unused.Close(); err != nil || unused.Opened() {
		t.Fatalf("close of an unused finder: %v, opened %v", err, unused.Opened())
	}
	f := New(filepath.Join(t.TempDir(), "search"), store, m, nil)
	defer f.Close()
	if err := <-store.AppendMessages("w1", []persist.Message{{Seq: 1, UUID: "u1", Data: userFrame("u1", "drain the queue")}}); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(2 * time.Minute); !f.Opened(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("a commit of messages did not open the index")
		}
	}
	waitHits(t, f, "drain", "s1", 1)
}

// An index that cannot be opened makes search unavailable (the server
// answers 503), not the server.
func TestIndexUnavailable(t *testing.T) {
	store, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := New(filepath.Join(file, "search"), store, &sessions{events: hub.New(0)}, nil)
	defer f.Close()
	for range 2 {
		if _, err := f.Search("anything", 10, ""); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("search with no index: %v, want ErrUnavailable", err)
		}
	}
}
