package worker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// TestLookupsDuringCommit: while a create waits for its commit, lookups,
// attaches and new subscribers are answered at once, and see the state as
// it was: the new worker appears once it is stored.
func TestLookupsDuringCommit(t *testing.T) {
	store := openStore(t)
	k := &fakeKind{}
	m := fakeManager(t, store, map[worker.Kind]worker.Factory{worker.KindTerminal: k.factory}, nil)
	s, first := createWorker(t, m, worker.KindTerminal)

	entered, release := store.Hold()
	<-entered
	defer release()
	created := make(chan error, 1)
	go func() { created <- create(m, s.ID) }()
	waitParked(t, "worker_test.create", "persist.(*Records)")

	looked := make(chan error, 1)
	go func() {
		_ = m.Sessions()
		if _, _, err := m.WaitRuntime(t.Context(), s.ID, first.ID); err != nil {
			looked <- err
			return
		}
		sub, _, err := m.Subscribe()
		if err == nil {
			sub.Close()
		}
		looked <- err
	}()
	select {
	case err := <-looked:
		if err != nil {
			t.Fatal(err)
		}
	case err := <-created:
		t.Fatalf("the create finished while its commit was held: %v", err)
	case <-guard():
		t.Fatal("lookups waited for a commit")
	}
	if got, _ := m.Session(s.ID); len(got.Workers) != 1 {
		t.Fatalf("a worker was shown before it was stored: %+v", got.Workers)
	}
	release()
	if err := <-created; err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Session(s.ID); len(got.Workers) != 2 {
		t.Fatalf("stored worker not shown: %+v", got.Workers)
	}
}

// TestEventsInCommitOrder: two changes of one session made at once are
// applied one after the other, each on the other's result, and broadcast
// in the order they were committed.
func TestEventsInCommitOrder(t *testing.T) {
	store := openStore(t)
	chat := &fakeKind{}
	m := fakeManager(t, store, map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory}, nil)
	s, _ := createWorker(t, m, worker.KindSDK)
	env := chat.last(t)
	sub, _, err := m.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	entered, release := store.Hold()
	<-entered
	defer release()
	renamed := make(chan error, 1)
	go func() { renamed <- rename(m, s.ID, "one") }()
	waitParked(t, "worker_test.rename", "persist.(*Records)")
	recorded := make(chan struct{})
	go func() { recordConversation(env, "conversation-1"); close(recorded) }()
	waitParked(t, "worker_test.recordConversation")
	release()
	if err := <-renamed; err != nil {
		t.Fatal(err)
	}
	<-recorded

	first, second := nextEvent(t, sub), nextEvent(t, sub)
	if first.Session.Title != "one" || first.Session.ClaudeSessionID != nil {
		t.Fatalf("first event: %+v", first.Session)
	}
	if second.Session.Title != "one" || second.Session.ClaudeSessionID == nil {
		t.Fatalf("second event: %+v", second.Session)
	}
	got, _ := m.Session(s.ID)
	if got.Title != "one" || got.ClaudeSessionID == nil || *got.ClaudeSessionID != "conversation-1" {
		t.Fatalf("a change was lost: %+v", got)
	}
	recs, err := store.Records().Sessions()
	if err != nil || len(recs) != 1 || !contains(recs[0].Value, `"title":"one"`) || !contains(recs[0].Value, `"claudeSessionId":"conversation-1"`) {
		t.Fatalf("stored session: %s, %v", recs[0].Value, err)
	}
}

// create, rename and recordConversation name the goroutines waitParked
// looks for.
func create(m *worker.Manager, sid string) error {
	_, err := m.CreateWorker(context.Background(), sid, worker.WorkerRequest{Kind: worker.KindTerminal})
	return err
}

func rename(m *worker.Manager, sid, title string) error {
	_, err := m.RenameSession(sid, title)
	return err
}

func recordConversation(env worker.Env, id string) { env.SetClaudeSession(id) }

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }

// guard ends a wait that should not take long; it is never reached when
// things work.
func guard() <-chan time.Time { return time.After(waitFor) }
