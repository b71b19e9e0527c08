package main

import (
	"context"
	"testing"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// TestLoadWritesNothingForIdleWorkers: restoring workers found as they
// were stored changes nothing, so it writes nothing and announces nothing.
// Each restored sdk worker used to store itself again ("running, idle"),
// one commit each: a start with 10,000 sessions took 22 s.
func TestLoadWritesNothingForIdleWorkers(t *testing.T) {
	path := buildSessionsDB(t, 50)
	st, err := persist.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mgr := quietManager(st)
	sub, _, err := mgr.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	ctx := context.Background()
	if err := mgr.Load(ctx); err != nil {
		t.Fatal(err)
	}
	defer mgr.Close(ctx)
	sessions := mgr.Sessions()
	if len(sessions) != 50 || sessions[0].Workers[0].Status != worker.StatusRunning {
		t.Fatalf("restored %d sessions", len(sessions))
	}
	if n := sub.Len(); n != 0 {
		t.Fatalf("Load announced %d worker updates, want none", n)
	}
}
