package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// idleRuntime is a runtime that does nothing: the tests and the benchmark
// measure the manager, not a kind.
type idleRuntime struct{}

func (idleRuntime) Attach(context.Context, string) (*hub.Stream, error) {
	return nil, errors.New("idle runtime: no socket")
}

func (idleRuntime) HandleClient(context.Context, []byte) (*hub.Stream, error) {
	return nil, errors.New("idle runtime: no socket")
}

func (idleRuntime) Stop(context.Context) error { return nil }

// fakeKind is a worker kind whose runtimes do nothing by themselves: a
// test reports for them through the Env their factory got.
type fakeKind struct {
	mu   sync.Mutex
	envs []worker.Env
	// onStop, when set, runs inside Stop with the runtime's env, as a
	// kind's process ending under a stop would report.
	onStop func(worker.Env)
}

func (k *fakeKind) factory(_ context.Context, env worker.Env) (worker.Runtime, error) {
	k.mu.Lock()
	k.envs = append(k.envs, env)
	k.mu.Unlock()
	return &fakeRuntime{kind: k, env: env}, nil
}

// last returns the env of the latest runtime built.
func (k *fakeKind) last(t *testing.T) worker.Env {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.envs) == 0 {
		t.Fatal("no runtime was built")
	}
	return k.envs[len(k.envs)-1]
}

type fakeRuntime struct {
	idleRuntime
	kind *fakeKind
	env  worker.Env
	once sync.Once
}

func (r *fakeRuntime) Stop(context.Context) error {
	r.once.Do(func() {
		if r.kind.onStop != nil {
			r.kind.onStop(r.env)
		}
	})
	return nil
}

// storedWorker reads a worker's record from the store, as the next start
// would find it.
func storedWorker(t *testing.T, store *persist.Store, sid, wid string) (worker.Info, bool) {
	t.Helper()
	recs, err := store.Records().Workers(sid)
	if errors.Is(err, persist.ErrNotFound) {
		return worker.Info{}, false
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.ID == wid {
			var i worker.Info
			if err := json.Unmarshal(r.Value, &i); err != nil {
				t.Fatal(err)
			}
			return i, true
		}
	}
	return worker.Info{}, false
}

// fakeManager is a loaded manager on store with kinds and validators,
// closed at cleanup.
func fakeManager(t *testing.T, store *persist.Store, kinds map[worker.Kind]worker.Factory, validators map[worker.Kind]worker.Validator) *worker.Manager {
	t.Helper()
	return loaded(t, worker.Options{Store: store, Factories: kinds, Validators: validators})
}

// loaded is a manager made with o (logging nothing), loaded (which runs
// the crash clean-up) and closed at cleanup.
func loaded(t *testing.T, o worker.Options) *worker.Manager {
	t.Helper()
	o.Log = slog.New(slog.DiscardHandler)
	m := worker.NewManager(o)
	if err := m.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		if err := m.Close(ctx); err != nil {
			t.Errorf("close manager: %v", err)
		}
	})
	return m
}

// event is one /ws/app lifecycle frame, as a tab reads it.
type event struct {
	Type     string         `json:"type"`
	WorkerID string         `json:"workerId"`
	Worker   worker.Info    `json:"worker"`
	Session  worker.Session `json:"session"`
}

func nextEvent(t *testing.T, sub *hub.Sub) event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	f, err := sub.Recv(ctx)
	if err != nil {
		t.Fatalf("waiting for an event: %v", err)
	}
	var e event
	if err := json.Unmarshal(f.Data, &e); err != nil {
		t.Fatalf("event %s: %v", f.Data, err)
	}
	return e
}

// waitParked waits until a goroutine whose stack holds every one of names
// is blocked (on a lock, a channel, a commit), not running.
func waitParked(t *testing.T, names ...string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(waitFor); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			head, _, _ := strings.Cut(g, "\n")
			if strings.Contains(head, "[running]") || strings.Contains(head, "[runnable]") {
				continue
			}
			all := true
			for _, name := range names {
				all = all && strings.Contains(g, name)
			}
			if all {
				return
			}
		}
	}
	t.Fatalf("no goroutine blocked in %v", names)
}
