package worker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// TestReportsDroppedAfterStop: once the manager decided to stop or replace
// a runtime, nothing it reports is recorded. The kinds need not guard
// their own reports for that.
func TestReportsDroppedAfterStop(t *testing.T) {
	t.Run("restart", func(t *testing.T) {
		k := &fakeKind{}
		m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, nil)
		s, w := createWorker(t, m, worker.KindTerminal)
		old := k.last(t)
		old.Report.Running()
		if _, err := m.RestartWorker(t.Context(), s.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		k.last(t).Report.Running()
		old.Report.Exited(0, "SIGHUP", "killed by the restart")
		if got, _ := m.Worker(s.ID, w.ID); got.Status != worker.StatusRunning || got.Error != nil {
			t.Fatalf("the replaced runtime's exit was recorded: %+v", got)
		}
	})
	t.Run("switch", func(t *testing.T) {
		chat, term := &fakeKind{}, &fakeKind{}
		// The CLI, killed by the stop, reports its end from inside Stop.
		chat.onStop = func(env worker.Env) {
			env.Report.Activity(worker.ActivityActive)
			env.Report.Exited(143, "", "terminated")
		}
		m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory, worker.KindPTYAgent: term.factory}, nil)
		s, w := createWorker(t, m, worker.KindSDK)
		chat.last(t).Report.Running()
		sub, _, err := m.Subscribe()
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		next, err := m.Switch(t.Context(), s.ID, worker.SwitchRequest{To: worker.KindPTYAgent})
		if err != nil {
			t.Fatal(err)
		}
		for e := nextEvent(t, sub); e.Type != "worker-created"; e = nextEvent(t, sub) {
			if e.Type == "worker-updated" && e.Worker.ID == w.ID && e.Worker.Status != worker.StatusStopped {
				t.Fatalf("a report made during the stop was broadcast: %+v", e.Worker)
			}
		}
		got, _ := m.Worker(s.ID, w.ID)
		if got.Status != worker.StatusStopped || got.ExitCode != nil || got.Error != nil || got.Activity != nil {
			t.Fatalf("switched-away worker: %+v", got)
		}
		if next.Kind != worker.KindPTYAgent {
			t.Fatalf("switched to %+v", next)
		}
	})
	t.Run("delete", func(t *testing.T) {
		k := &fakeKind{}
		store := openStore(t)
		m := fakeManager(t, store, map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, nil)
		s, w := createWorker(t, m, worker.KindTerminal)
		if err := m.DeleteWorker(t.Context(), s.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		k.last(t).Report.Running()
		if _, ok := storedWorker(t, store, s.ID, w.ID); ok {
			t.Fatal("a late report stored the deleted worker again")
		}
	})
	t.Run("close", func(t *testing.T) {
		k := &fakeKind{onStop: func(env worker.Env) { env.Report.Exited(0, "SIGHUP", "killed by signal SIGHUP") }}
		store := openStore(t)
		m := worker.NewManager(worker.Options{Store: store, Factories: map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}})
		s, w := createWorker(t, m, worker.KindTerminal)
		k.last(t).Report.Running()
		if err := m.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		// The next start must see that the server, not the shell, ended it.
		if got, _ := storedWorker(t, store, s.ID, w.ID); got.Status != worker.StatusRunning || got.Error != nil {
			t.Fatalf("shutdown recorded as the worker's own end: %+v", got)
		}
	})
}

// TestRefusedOptionsChangeNothing: options the kind's validator refuses
// are answered with its error before anything is stored or broadcast: the
// next event a tab sees is the next worker that was made.
func TestRefusedOptionsChangeNothing(t *testing.T) {
	store := openStore(t)
	k := &fakeKind{}
	refuse := func(env worker.Env) error {
		if env.Info.Name == "bad" {
			return &worker.CodeError{Code: wire.CodeInvalidBase, Err: wire.FieldErrorf("base", "does not resolve")}
		}
		return nil
	}
	build := func(ctx context.Context, env worker.Env) (worker.Runtime, error) {
		if err := refuse(env); err != nil {
			return nil, err // as gitdiff.New refuses what gitdiff.Validate does
		}
		return k.factory(ctx, env)
	}
	var seen worker.Env
	validate := func(_ context.Context, env worker.Env) error { seen = env; return refuse(env) }
	m := fakeManager(t, store, map[worker.Kind]worker.Factory{worker.KindGitDiff: build}, map[worker.Kind]worker.Validator{worker.KindGitDiff: validate})
	cwd := t.TempDir()
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: cwd, Agent: "none"})
	if err != nil {
		t.Fatal(err)
	}
	sub, _, err := m.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	_, err = m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindGitDiff, Name: "bad"})
	var ce *worker.CodeError
	if !errors.As(err, &ce) || ce.Code != wire.CodeInvalidBase || !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("refused create: %v", err)
	}
	if seen.Session.Cwd != cwd || seen.Info.Kind != worker.KindGitDiff || seen.Report != nil {
		t.Fatalf("validator got %+v", seen)
	}
	good, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindGitDiff})
	if err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, sub); e.Type != "worker-created" || e.Worker.ID != good.ID {
		t.Fatalf("first event after a refused create: %+v, want worker-created of %s", e, good.ID)
	}
	if recs, err := store.Records().Workers(s.ID); err != nil || len(recs) != 1 {
		t.Fatalf("stored workers: %d, %v", len(recs), err)
	}
}
