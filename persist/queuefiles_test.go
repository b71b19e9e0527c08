package persist

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func withFile(id, file string) func([]QueueItem) ([]QueueItem, error) {
	return func(q []QueueItem) ([]QueueItem, error) {
		return append(q, QueueItem{ID: id, Content: "content " + id, Files: []QueueFile{{ID: file, Name: file + ".png"}}}), nil
	}
}

func fileIDs(t *testing.T, s *Store, sid string) string {
	t.Helper()
	ids, err := s.QueueFileIDs(sid)
	must(t, err)
	return strings.Join(ids, ",")
}

// TestQueueFilesFollowItems: a queued item's files are stored in its
// commit (none when it is refused), read back across a reopen, and gone
// with the item: removed, delivered (the message's commit then holds its
// own copy) or with its session.
func TestQueueFilesFollowItems(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	must(t, s.Records().PutSession("s1", []byte(`{}`)))
	data := bytes.Repeat([]byte("x"), chunkSize+10) // two pieces

	// Refused: nothing stored, not even the files.
	_, err := s.UpdateQueueFiles("s1", []Blob{{ID: "f0", Meta: []byte("{}"), Data: data}},
		func([]QueueItem) ([]QueueItem, error) { return nil, errors.New("full") })
	if !errors.Is(err, ErrAborted) || fileIDs(t, s, "s1") != "" {
		t.Fatalf("refused update: %v, files %q", err, fileIDs(t, s, "s1"))
	}
	for _, id := range []string{"a", "b", "c"} {
		_, err := s.UpdateQueueFiles("s1", []Blob{{ID: "f" + id, Meta: []byte("{}"), Data: data}}, withFile(id, "f"+id))
		must(t, err)
	}
	// A file id stored already is refused whole.
	if _, err := s.UpdateQueueFiles("s1", []Blob{{ID: "fa", Meta: []byte("{}"), Data: data}}, put("d")); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate file: %v", err)
	}
	must(t, s.Close())
	s = openStore(t, path, nil)
	if got, err := s.QueueFile("s1", "fb"); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("file after reopen: %d bytes, %v", len(got), err)
	}
	if queueIDs(t, s, "s1") != "abc" || fileIDs(t, s, "s1") != "fa,fb,fc" {
		t.Fatalf("queue %q files %q", queueIDs(t, s, "s1"), fileIDs(t, s, "s1"))
	}

	// Removed: its file goes in the same commit.
	_, err = s.UpdateQueue("s1", func(q []QueueItem) ([]QueueItem, error) { return q[:1+copy(q[1:], q[2:])], nil })
	must(t, err)
	if _, err := s.QueueFile("s1", "fb"); !errors.Is(err, ErrNotFound) || fileIDs(t, s, "s1") != "fa,fc" {
		t.Fatalf("removed item's file: %v, files %q", err, fileIDs(t, s, "s1"))
	}
	// Delivered: the message keeps its copy, the queue's goes.
	m := msgs(1, 1)
	m[0].Blobs = []Blob{{ID: "fa", Meta: []byte(`{"n":1}`), Data: data}}
	mustWait(t, s.AppendMessagesDequeue("w1", m, "s1", "a", "content a"))
	if _, got, err := s.Blob("w1", "fa"); err != nil || !bytes.Equal(got, data) || fileIDs(t, s, "s1") != "fc" {
		t.Fatalf("delivered: message blob %v, queue files %q", err, fileIDs(t, s, "s1"))
	}
	// The session goes: so do its queue's files.
	must(t, s.Records().DeleteSession("s1"))
	if fileIDs(t, s, "s1") != "" {
		t.Fatalf("files of a deleted session: %q", fileIDs(t, s, "s1"))
	}
}
