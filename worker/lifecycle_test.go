package worker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

var statuses = []worker.Status{
	worker.StatusStarting, worker.StatusRunning, worker.StatusError, worker.StatusExited, worker.StatusStopped,
}

// TestTransitionTable checks every pair of statuses, for a kind and for the
// manager, against the lifecycle: starting → running → exited|error,
// error → running, stopped only by the manager, restart (→ starting) the
// one way back, and a stopped worker final.
func TestTransitionTable(t *testing.T) {
	const (
		S, R, E, X, P = worker.StatusStarting, worker.StatusRunning, worker.StatusError, worker.StatusExited, worker.StatusStopped
	)
	type move struct{ from, to worker.Status }
	kind := map[move]bool{
		{S, S}: true, {S, R}: true, {S, E}: true, {S, X}: true,
		{R, R}: true, {R, E}: true, {R, X}: true,
		{E, E}: true, {E, R}: true,
		{X, X}: true,
	}
	manager := map[move]bool{
		{S, S}: true, {S, E}: true, {S, P}: true,
		{R, R}: true, {R, E}: true, {R, P}: true, {R, S}: true,
		{E, E}: true, {E, P}: true, {E, S}: true,
		{X, X}: true, {X, E}: true, {X, P}: true, {X, S}: true,
	}
	for _, from := range statuses {
		for _, to := range statuses {
			mv := move{from, to}
			if got := worker.Allowed(from, to, false); got != kind[mv] {
				t.Errorf("kind %s → %s: allowed %v, want %v", from, to, got, kind[mv])
			}
			if got := worker.Allowed(from, to, true); got != manager[mv] {
				t.Errorf("manager %s → %s: allowed %v, want %v", from, to, got, manager[mv])
			}
		}
	}
	if worker.Allowed("", worker.StatusRunning, true) || worker.Allowed("bogus", "bogus", false) {
		t.Error("a status outside the table moved")
	}
}

// report is one of a kind's reports that moves a status.
type report struct {
	name string
	do   func(worker.Reporter)
}

var reports = []report{
	{"Running", func(r worker.Reporter) { r.Running() }},
	{"Failed", func(r worker.Reporter) { r.Failed(errors.New("boom")) }},
	{"Exited", func(r worker.Reporter) { r.Exited(3, "", "") }},
}

// TestReportsFollowTable drives a real manager into each status and makes
// every report there: the manager records only the moves in the table.
func TestReportsFollowTable(t *testing.T) {
	into := map[worker.Status]func(worker.Reporter){
		worker.StatusStarting: func(worker.Reporter) {},
		worker.StatusRunning:  func(r worker.Reporter) { r.Running() },
		worker.StatusError:    func(r worker.Reporter) { r.Failed(errors.New("first")) },
		worker.StatusExited:   func(r worker.Reporter) { r.Running(); r.Exited(0, "", "") },
	}
	want := map[worker.Status][3]worker.Status{ // after Running, Failed, Exited
		worker.StatusStarting: {worker.StatusRunning, worker.StatusError, worker.StatusExited},
		worker.StatusRunning:  {worker.StatusRunning, worker.StatusError, worker.StatusExited},
		worker.StatusError:    {worker.StatusRunning, worker.StatusError, worker.StatusError},
		worker.StatusExited:   {worker.StatusExited, worker.StatusExited, worker.StatusExited},
	}
	for from, setup := range into {
		for i, rep := range reports {
			t.Run(string(from)+"/"+rep.name, func(t *testing.T) {
				k := &fakeKind{}
				m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, nil)
				s, w := createWorker(t, m, worker.KindTerminal)
				setup(k.last(t).Report)
				if got, _ := m.Worker(s.ID, w.ID); got.Status != from {
					t.Fatalf("set-up: status %s, want %s", got.Status, from)
				}
				rep.do(k.last(t).Report)
				if got, _ := m.Worker(s.ID, w.ID); got.Status != want[from][i] {
					t.Fatalf("%s in %s: status %s, want %s", rep.name, from, got.Status, want[from][i])
				}
			})
		}
	}
}

// TestStoppedIsFinal: a worker the manager stopped (switched away from)
// comes back after a restart of the server as stopped, and no report of
// its new runtime changes it.
func TestStoppedIsFinal(t *testing.T) {
	store := openStore(t)
	chat, term := &fakeKind{}, &fakeKind{}
	kinds := map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory, worker.KindPTYAgent: term.factory}
	m := worker.NewManager(worker.Options{Store: store, Factories: kinds})
	s, old := createWorker(t, m, worker.KindSDK)
	chat.last(t).Report.Running()
	if _, err := m.Switch(t.Context(), s.ID, worker.SwitchRequest{To: worker.KindPTYAgent}); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(t.Context()); err != nil {
		t.Fatal(err)
	}

	m = fakeManager(t, store, kinds, nil)
	restored := chat.last(t)
	if !restored.Restored || restored.Info.ID != old.ID || restored.Info.Status != worker.StatusStopped {
		t.Fatalf("restored runtime of %+v", restored.Info)
	}
	for _, rep := range append(reports, report{"Activity", func(r worker.Reporter) { r.Activity(worker.ActivityActive) }}) {
		rep.do(restored.Report)
	}
	if got, _ := m.Worker(s.ID, old.ID); got.Status != worker.StatusStopped || got.Activity != nil || got.ExitCode != nil {
		t.Fatalf("stopped worker changed: %+v", got)
	}
	if _, err := m.RestartWorker(t.Context(), s.ID, old.ID); !errors.Is(err, worker.ErrUnsupported) {
		t.Fatalf("restart of a stopped agent: %v", err)
	}
}

// TestManagerMoves: restart is the way back to starting, from running,
// exited and error; a factory that fails leaves the worker in error.
func TestManagerMoves(t *testing.T) {
	k := &fakeKind{}
	m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, nil)
	s, w := createWorker(t, m, worker.KindTerminal)
	for _, setup := range []func(worker.Reporter){
		func(r worker.Reporter) { r.Running() },
		func(r worker.Reporter) { r.Running(); r.Exited(1, "", "") },
		func(r worker.Reporter) { r.Failed(errors.New("boom")) },
	} {
		setup(k.last(t).Report)
		got, err := m.RestartWorker(t.Context(), s.ID, w.ID)
		if err != nil || got.Status != worker.StatusStarting || got.ExitCode != nil || got.Error != nil {
			t.Fatalf("restart: %+v, %v", got, err)
		}
	}

	failing := func(context.Context, worker.Env) (worker.Runtime, error) { return nil, errors.New("no pty") }
	m = fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindTerminal: failing}, nil)
	s, w = createWorker(t, m, worker.KindTerminal)
	if w.Status != worker.StatusError || w.Error == nil || *w.Error != "no pty" {
		t.Fatalf("failed build: %+v", w)
	}
}

// createWorker makes a session without an agent and one worker of kind k.
func createWorker(t *testing.T, m *worker.Manager, k worker.Kind) (worker.Session, worker.Info) {
	t.Helper()
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: k})
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}
