package worker_test

import (
	"encoding/json"
	"testing"

	"github.com/agentdesk/agentdesk/internal/usage"
	"github.com/agentdesk/agentdesk/worker"
)

// TestSessionCost: a session's cost sums its stored results over every
// worker and day, and nothing of other sessions: the budget of a session
// holds across restarts and switches.
func TestSessionCost(t *testing.T) {
	store := openStore(t)
	m := fakeManager(t, store, nil, nil)
	put := func(seq uint64, sid, wid, day string, cost float64) {
		b, err := json.Marshal(usage.Record{Session: sid, Worker: wid, Day: day, Models: map[string]usage.Totals{"m": {CostUSD: cost, Turns: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := <-store.PutUsage(wid, seq, day, b); err != nil {
			t.Fatal(err)
		}
	}
	put(1, "s1", "w1", "2026-11-01", 0.25)
	put(2, "s1", "w1", "2026-11-02", 0.5)
	put(1, "s1", "w2", "2026-11-27", 1)
	put(1, "s2", "w3", "2026-11-27", 7)
	got, err := worker.NewUsage(m).SessionCost("s1")
	if err != nil || got != 1.75 {
		t.Errorf("cost of s1: %v %v", got, err)
	}
}
