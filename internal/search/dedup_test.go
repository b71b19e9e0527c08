package search

import (
	"slices"
	"testing"
	"time"
)

// agentSession is a session whose workers were created in the order of
// wids; the catalog lists them newest first (worker/find sorts them by
// creation time).
func agentSession(id string, wids ...string) Session {
	newest := slices.Clone(wids)
	slices.Reverse(newest)
	return session(id, "switched", newest...)
}

// TestOneHitPerMessage (issue 22, item 5): each chat ⇄ terminal round
// trip makes a new chat worker that imports the history under the same
// uuids. A message is one hit, and it opens the newest worker holding it
// (the live chat), not a chat a switch retired; when that worker is
// deleted, the next newest copy takes over.
func TestOneHitPerMessage(t *testing.T) {
	e := newEnv(t)
	// Worker ids that sort against their age, so that only CreatedAt
	// tells the newest.
	chats := []string{"w9-first", "w5-second", "w3-third", "w1-live"}
	e.cat.set(agentSession("s1", chats...))
	x := e.open(nil)
	for _, w := range chats {
		e.append(w, "u1", userLine("please tidy the quagmire"))
		e.append(w, "u2", assistantLine(textBlock("the quagmire is tidy")))
	}
	e.append("w9-first", "u0", userLine("an older quagmire only the first chat holds"))
	hits := waitForHits(t, x, "quagmire", func(hs []Hit) bool { return len(hs) >= 3 && routedTo(hs, "u1", "w1-live") })
	if len(hits) != 3 {
		t.Fatalf("%d hits for 3 messages: %+v", len(hits), hits)
	}
	for _, h := range hits {
		want := "w1-live"
		if h.UUID == "u0" {
			want = "w9-first"
		}
		if h.WorkerID != want {
			t.Errorf("hit %s opens %s, want %s", h.UUID, h.WorkerID, want)
		}
	}

	// The live chat is deleted: its copies were the documents; the others
	// still hold the messages.
	e.cat.set(agentSession("s1", chats[:3]...))
	hits = waitForHits(t, x, "quagmire", func(hs []Hit) bool {
		return len(hs) == 3 && routedTo(hs, "u1", "w3-third") && routedTo(hs, "u2", "w3-third")
	})
	if len(hits) != 3 {
		t.Fatalf("after the delete: %+v", hits)
	}
}

func routedTo(hs []Hit, uuid, wid string) bool {
	for _, h := range hs {
		if h.UUID == uuid {
			return h.WorkerID == wid
		}
	}
	return false
}

// waitForHits searches until ok holds for the hits, or the deadline.
func waitForHits(t *testing.T, x *Indexer, q string, ok func([]Hit) bool) []Hit {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		res, err := x.Search(q, 100, "")
		if err != nil {
			t.Fatal(err)
		}
		if ok(res.Hits) || time.Now().After(end) {
			return res.Hits
		}
		time.Sleep(10 * time.Millisecond) // polls for the indexer's progress; the deadline is only a guard
	}
}
