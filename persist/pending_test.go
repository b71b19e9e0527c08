package persist

import (
	"path/filepath"
	"testing"
)

// TestPendingRecords: records are kept per worker across a reopen of the
// file, deleted one by one or all, and go with their worker.
func TestPendingRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutPending("", "r1", nil); err == nil {
		t.Fatal("a record without a worker was stored")
	}
	for _, id := range []string{"r1", "r2"} {
		if err := s.PutPending("w1", id, []byte(`{"id":"`+id+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutPending("w2", "r3", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs, err := s.Pending("w1")
	if err != nil || len(recs) != 2 || recs[0].ID != "r1" || string(recs[1].Data) != `{"id":"r2"}` {
		t.Fatalf("after reopen: %+v %v", recs, err)
	}
	if err := s.DeletePending("w1", "r1", "unknown"); err != nil {
		t.Fatal(err)
	}
	if recs, _ := s.Pending("w1"); len(recs) != 1 || recs[0].ID != "r2" {
		t.Fatalf("after deleting r1: %+v", recs)
	}
	if err := s.DeletePending("w1"); err != nil {
		t.Fatal(err)
	}
	if recs, _ := s.Pending("w1"); len(recs) != 0 {
		t.Fatalf("after deleting all: %+v", recs)
	}
	if recs, _ := s.Pending("w2"); len(recs) != 1 {
		t.Fatalf("another worker's records went too: %+v", recs)
	}
	if err := s.Records().PutSession("s1", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Records().PutWorker("s1", "w2", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Records().DeleteWorker("s1", "w2"); err != nil {
		t.Fatal(err)
	}
	if recs, _ := s.Pending("w2"); len(recs) != 0 {
		t.Fatalf("a deleted worker's records stayed: %+v", recs)
	}
}
