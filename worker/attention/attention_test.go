package attention

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// guard bounds a wait that only a failure makes long.
func guard() <-chan time.Time { return time.After(2 * time.Minute) }

func openStore(t *testing.T, path string) *persist.Store {
	t.Helper()
	st, err := persist.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestAttentionEndsWithManager: the inbox's event loop ends when the
// manager closes its events even if the list is never closed (it used to
// resubscribe to the closed manager forever).
func TestAttentionEndsWithManager(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "agentdesk.db"))
	defer store.Close()
	mgr := worker.NewManager(worker.Options{Store: store})
	if err := mgr.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	l := New(Options{Manager: mgr, Store: store})
	l.Start()
	if err := mgr.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-guard():
		t.Fatal("the attention loop still runs after the manager closed")
	}
	l.Close()
}

// oneWorker is a manager with session s1 holding worker w1, idle.
type oneWorker struct {
	events *hub.Hub
	mu     sync.Mutex
	frames [][]byte
}

func (m *oneWorker) Sessions() []worker.Session {
	idle := worker.ActivityIdle
	return []worker.Session{{ID: "s1", Title: "Deploy", Workers: []worker.Info{
		{ID: "w1", SessionID: "s1", Kind: worker.KindSDK, Status: worker.StatusRunning, Activity: &idle},
	}}}
}

func (m *oneWorker) Subscribe() (*hub.Sub, []byte, error) {
	sub, _ := m.events.Subscribe(16)
	b, err := json.Marshal(map[string]any{"type": wire.TypeSessionsSync, "sessions": m.Sessions()})
	return sub, b, err
}

func (m *oneWorker) Runtime(string, string) (worker.Info, worker.Runtime, error) {
	return worker.Info{}, nil, errors.New("no runtime")
}

func (m *oneWorker) Announce(f json.RawMessage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.frames = append(m.frames, f)
}

// The marks of an older agentdesk's attention.json move into the store
// at the first start, and the file goes; they survive the next start
// without it, and a file left behind then does not override them.
func TestMarksMoveFromTheOldFile(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "attention.json")
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	old := `{"unseen":{"w1":{"sessionId":"s1","at":"2026-03-04T05:06:07Z"}},"since":{"w1|finished|":"2026-03-04T05:06:07Z"}}`
	if err := os.WriteFile(legacy, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "agentdesk.db")
	m := &oneWorker{events: hub.New(0)}
	items := func(store *persist.Store) []Item {
		return New(Options{Manager: m, Store: store, Legacy: legacy}).Items()
	}

	store := openStore(t, db)
	got := items(store)
	if len(got) != 1 || got[0].Kind != KindFinished || !got[0].Since.Equal(at) || got[0].WorkerID != "w1" || got[0].SessionTitle != "Deploy" {
		t.Fatalf("after the move: %+v", got)
	}
	if _, err := os.Stat(legacy); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the old file is still there: %v", err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	// A leftover file (a removal that failed) does not bring back marks
	// the store no longer has: the session was seen meanwhile.
	store = openStore(t, db)
	defer store.Close()
	l := New(Options{Manager: m, Store: store})
	if got := l.Items(); len(got) != 1 || !got[0].Since.Equal(at) {
		t.Fatalf("after a restart: %+v", got)
	}
	if err := l.Seen("s1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(legacy, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := items(store); len(got) != 0 {
		t.Fatalf("a leftover file brought marks back: %+v", got)
	}
	if _, err := os.Stat(legacy); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the leftover file is still there: %v", err)
	}
}

// A corrupt old file only loses its marks: the start goes on, the file
// goes.
func TestCorruptOldFile(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "attention.json")
	if err := os.WriteFile(legacy, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	store := openStore(t, filepath.Join(dir, "agentdesk.db"))
	defer store.Close()
	if got := New(Options{Manager: &oneWorker{events: hub.New(0)}, Store: store, Legacy: legacy}).Items(); len(got) != 0 {
		t.Fatalf("items: %+v", got)
	}
	if _, err := os.Stat(legacy); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the corrupt file is still there: %v", err)
	}
}
