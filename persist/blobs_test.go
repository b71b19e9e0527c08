package persist

import (
	"bytes"
	"errors"
	"testing"
)

// TestBlobs: attachments are stored with their message, read back whole,
// left out of the message pages, refused when their id repeats (with the
// message: nothing of the batch is kept) and deleted with the worker.
func TestBlobs(t *testing.T) {
	s := newStore(t)
	img := bigData(7, 2*chunkSize+3)
	mustWait(t, s.AppendMessages("w", []Message{{Seq: 1, UUID: "u1", Data: []byte(`{"ref":"a1"}`),
		Blobs: []Blob{{ID: "a1", Meta: []byte(`{"name":"x.png"}`), Data: img}, {ID: "a2", Meta: []byte("m2"), Data: []byte("hi")}}}}))
	meta, data, err := s.Blob("w", "a1")
	must(t, err)
	if string(meta) != `{"name":"x.png"}` || !bytes.Equal(data, img) {
		t.Fatalf("blob a1: meta %q, %d bytes", meta, len(data))
	}
	if _, data, _ := s.Blob("w", "a2"); string(data) != "hi" {
		t.Fatalf("blob a2: %q", data)
	}
	page, err := s.MessagesAfter("w", 0, 0)
	must(t, err)
	if len(page) != 1 || string(page[0].Data) != `{"ref":"a1"}` || page[0].Blobs != nil {
		t.Fatalf("page: %+v", page)
	}
	for _, id := range []string{"nope", ""} {
		if _, _, err := s.Blob("w", id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Blob(%q): %v", id, err)
		}
	}
	if _, _, err := s.Blob("other", "a1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("blob of another worker: %v", err)
	}

	err = <-s.AppendMessages("w", []Message{{Seq: 2, UUID: "u2", Data: []byte("x"), Blobs: []Blob{{ID: "a1", Data: []byte("other")}}}})
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("repeated blob id: %v", err)
	}
	if n, _ := s.MessageCount("w"); n != 1 {
		t.Fatalf("%d messages after the refused batch", n)
	}
	if _, data, _ := s.Blob("w", "a1"); !bytes.Equal(data, img) {
		t.Fatal("refused batch changed the stored blob")
	}
	if err := <-s.AppendMessages("w", []Message{{Seq: 2, UUID: "u2", Data: []byte("x"), Blobs: []Blob{{Data: []byte("x")}}}}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("blob without id: %v", err)
	}

	must(t, s.Records().PutSession("s", []byte(`{}`)))
	must(t, s.Records().PutWorker("s", "w", []byte(`{}`)))
	must(t, s.Records().DeleteWorker("s", "w"))
	if _, _, err := s.Blob("w", "a1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("blob after the worker was deleted: %v", err)
	}
}
