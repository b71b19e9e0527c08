package persist

import (
	"errors"
	"testing"
)

func queueIDs(t *testing.T, s *Store, sid string) string {
	t.Helper()
	items, err := s.Queue(sid)
	must(t, err)
	out := ""
	for _, it := range items {
		out += it.ID
	}
	return out
}

func put(items ...string) func([]QueueItem) ([]QueueItem, error) {
	return func(q []QueueItem) ([]QueueItem, error) {
		for _, id := range items {
			q = append(q, QueueItem{ID: id, Content: "content " + id})
		}
		return q, nil
	}
}

// TestDequeueIsOneCommit: the user message that delivers a queue item and
// the item's removal commit together or not at all, and survive a reopen
// (a crash after the commit) as one.
func TestDequeueIsOneCommit(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	must(t, s.Records().PutSession("s1", []byte(`{}`)))
	_, err := s.UpdateQueue("s1", put("a", "b"))
	must(t, err)

	// Not the first item, or changed content: nothing written.
	for _, c := range []struct{ id, content string }{{"b", "content b"}, {"a", "other"}} {
		err := wait(t, s.AppendMessagesDequeue("w1", msgs(1, 1), "s1", c.id, c.content))
		if !errors.Is(err, ErrChanged) {
			t.Fatalf("dequeue %s/%q: %v, want ErrChanged", c.id, c.content, err)
		}
	}
	// A message the log refuses (a gap in seq): the item stays queued.
	if err := wait(t, s.AppendMessagesDequeue("w1", msgs(2, 2), "s1", "a", "content a")); !errors.Is(err, ErrSeq) {
		t.Fatalf("dequeue with a bad seq: %v, want ErrSeq", err)
	}
	if n, _ := s.MessageCount("w1"); n != 0 || queueIDs(t, s, "s1") != "ab" {
		t.Fatalf("after refusals: %d messages, queue %q", n, queueIDs(t, s, "s1"))
	}

	mustWait(t, s.AppendMessagesDequeue("w1", msgs(1, 1), "s1", "a", "content a"))
	must(t, s.Close())
	s = openStore(t, path, nil)
	if n, _ := s.MessageCount("w1"); n != 1 || queueIDs(t, s, "s1") != "b" {
		t.Fatalf("after reopen: %d messages, queue %q; want 1 and b", n, queueIDs(t, s, "s1"))
	}
}

// TestUpdateQueueAborted: an error from the update function writes nothing
// and comes back; a deleted session takes its queue along.
func TestUpdateQueueAborted(t *testing.T) {
	s := newStore(t)
	must(t, s.Records().PutSession("s1", []byte(`{}`)))
	_, err := s.UpdateQueue("s1", put("a"))
	must(t, err)
	boom := errors.New("boom")
	_, err = s.UpdateQueue("s1", func(q []QueueItem) ([]QueueItem, error) { return nil, boom })
	if !errors.Is(err, boom) || !errors.Is(err, ErrAborted) {
		t.Fatalf("aborted update: %v", err)
	}
	if got := queueIDs(t, s, "s1"); got != "a" {
		t.Fatalf("queue after abort %q", got)
	}
	must(t, s.Records().DeleteSession("s1"))
	if got := queueIDs(t, s, "s1"); got != "" {
		t.Errorf("queue of a deleted session %q", got)
	}
}
