package search

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
)

// TestMain checks for leaks; bleve's shared analysis workers are started
// when the package loads and live as long as the process.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker"))
}

// deadline guards every wait: a wait that ends by it failed.
const deadline = 2 * time.Minute

// fakeCatalog stands in for the sessions: a list and a hub of
// lifecycle events.
type fakeCatalog struct {
	mu       sync.Mutex
	sessions []Session
	events   *hub.Hub
	seq      uint64
}

func newCatalog() *fakeCatalog { return &fakeCatalog{events: hub.New(0)} }

func (c *fakeCatalog) Sessions() []Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Session(nil), c.sessions...)
}

func (c *fakeCatalog) Subscribe() (*hub.Sub, []byte, error) {
	sub, _ := c.events.Subscribe(256)
	return sub, nil, nil
}

// set replaces the sessions and publishes a lifecycle event.
func (c *fakeCatalog) set(ss ...Session) {
	c.mu.Lock()
	c.sessions = ss
	c.seq++
	seq := c.seq
	c.mu.Unlock()
	c.events.Publish(seq, hub.Frame{Data: []byte(`{"type":"session-updated"}`)})
}

func session(id, title string, wids ...string) Session {
	s := Session{ID: id, Title: title, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	for _, w := range wids {
		s.Workers = append(s.Workers, w)
	}
	return s
}

type env struct {
	t     *testing.T
	dir   string // the search dir
	store *persist.Store
	cat   *fakeCatalog
	seqs  map[string]uint64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return &env{t: t, dir: filepath.Join(t.TempDir(), "search"), store: st, cat: newCatalog(), seqs: map[string]uint64{}}
}

// open starts an indexer woken by the store's commits; it is closed when
// the test ends unless the test closes it.
func (e *env) open(beforeBatch func() error) *Indexer {
	e.t.Helper()
	x, err := open(e.dir, e.store, e.cat, nil, beforeBatch)
	if err != nil {
		e.t.Fatal(err)
	}
	e.store.OnMessages(x.Wake)
	e.t.Cleanup(func() {
		e.store.OnMessages(nil)
		if err := x.Close(); err != nil && !errors.Is(err, ErrClosed) {
			e.t.Errorf("close: %v", err)
		}
	})
	return x
}

func (e *env) close(x *Indexer) {
	e.t.Helper()
	e.store.OnMessages(nil)
	if err := x.Close(); err != nil {
		e.t.Fatal(err)
	}
}

// append stores one CLI line (as the sdk journal frames it) and waits for
// its commit.
func (e *env) append(wid, uuid string, line map[string]any) {
	e.t.Helper()
	line["uuid"] = uuid
	msg, err := json.Marshal(line)
	if err != nil {
		e.t.Fatal(err)
	}
	e.seqs[wid]++
	seq := e.seqs[wid]
	frame, _ := json.Marshal(map[string]any{"type": "sdk-message", "seq": seq, "message": json.RawMessage(msg)})
	if err := <-e.store.AppendMessages(wid, []persist.Message{{Seq: seq, UUID: uuid, Data: frame}}); err != nil {
		e.t.Fatal(err)
	}
}

func userLine(text string) map[string]any {
	return map[string]any{"type": "user", "timestamp": "2026-03-04T05:06:07Z",
		"message": map[string]any{"role": "user", "content": text}}
}

func assistantLine(blocks ...map[string]any) map[string]any {
	return map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": blocks}}
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolBlock(name string, input map[string]any) map[string]any {
	return map[string]any{"type": "tool_use", "id": "t1", "name": name, "input": input}
}

// waitHits searches until the answer has n hits, and returns them.
func waitHits(t *testing.T, x *Indexer, q, sid string, n int) []Hit {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		res, err := x.Search(q, 100, sid)
		if err != nil {
			t.Fatal(err)
		}
		hits := res.Hits
		if len(hits) == n {
			return hits
		}
		if time.Now().After(end) {
			t.Fatalf("search %q: %d hits, want %d: %+v", q, len(hits), n, hits)
		}
		time.Sleep(10 * time.Millisecond) // polls for the indexer's progress; the deadline is only a guard
	}
}

// heldIndexer opens an indexer over session s1 (worker w1) whose batch
// writes stop inside, entered saying so, until free (safe to call again).
func (e *env) heldIndexer() (x *Indexer, entered <-chan struct{}, free func()) {
	e.cat.set(session("s1", "t", "w1"))
	in := make(chan struct{}, 1)
	release := make(chan struct{})
	x = e.open(func() error {
		select {
		case in <- struct{}{}:
		default:
		}
		<-release
		return nil
	})
	var once sync.Once
	return x, in, func() { once.Do(func() { close(release) }) }
}
