package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

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
	recs, err := store.Workers(sid)
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
