package worker_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// agentRuntime is a fake agent runtime that knows its activity, as the
// sdk and pty-agent kinds do.
type agentRuntime struct {
	idleRuntime
	a atomic.Value // worker.Activity
}

func (r *agentRuntime) Activity() worker.Activity {
	a, _ := r.a.Load().(worker.Activity)
	return a
}

// TestActivityOneSource (issue 22, item 3): the runtime's activity is the
// one truth. A runtime's activity frames reach its tabs at once, its
// report reaches the worker's record after a commit: a GET in between
// must not answer the older activity.
func TestActivityOneSource(t *testing.T) {
	store := openStore(t)
	rt := &agentRuntime{}
	envs := make(chan worker.Env, 1)
	factory := func(_ context.Context, env worker.Env) (worker.Runtime, error) {
		envs <- env
		return rt, nil
	}
	m := fakeManager(t, store, map[worker.Kind]worker.Factory{worker.KindSDK: factory}, nil)
	s, w := createWorker(t, m, worker.KindSDK)
	env := <-envs
	rt.a.Store(worker.ActivityActive)
	env.Report.Running()
	env.Report.Activity(worker.ActivityActive)

	entered, release := store.Hold()
	<-entered
	defer release()
	rt.a.Store(worker.ActivityStalled) // the stall watchdog fired: the tabs are told
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		env.Report.Activity(worker.ActivityStalled) // waits for its commit
	}()
	waitParked(t, "TestActivityOneSource.func", "persist.(*Records)")
	got, err := m.Worker(s.ID, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Activity == nil || *got.Activity != worker.ActivityStalled {
		t.Errorf("GET of the worker says %v while its runtime says stalled", deref(got.Activity))
	}
	sess, err := m.Session(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a := sess.Workers[0].Activity; a == nil || *a != worker.ActivityStalled {
		t.Errorf("the session's worker says %v while its runtime says stalled", deref(a))
	}
	release()
	<-reported
}

func deref(a *worker.Activity) any {
	if a == nil {
		return nil
	}
	return *a
}
