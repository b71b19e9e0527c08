package persist

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// bigData is n bytes that differ from one position and one seq to the
// next, so a piece stored at the wrong place shows.
func bigData(seq uint64, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(uint64(i)*31 + seq)
	}
	return b
}

func TestLargeMessages(t *testing.T) {
	s := newStore(t)
	sizes := []int{0, 10, chunkSize, chunkSize + 1, 3*chunkSize + 5}
	var in []Message
	for i, n := range sizes {
		seq := uint64(i + 1)
		in = append(in, Message{Seq: seq, UUID: fmt.Sprintf("uuid-%d", seq), Data: bigData(seq, n)})
	}
	mustWait(t, s.AppendMessages("w", in))
	got, err := s.MessagesAfter("w", 0, 0)
	must(t, err)
	if len(got) != len(in) {
		t.Fatalf("got %d messages, want %d", len(got), len(in))
	}
	for i, m := range got {
		if m.Seq != in[i].Seq || m.UUID != in[i].UUID || !bytes.Equal(m.Data, in[i].Data) {
			t.Fatalf("message %d: seq %d uuid %s, %d bytes; want %d bytes", i, m.Seq, m.UUID, len(m.Data), len(in[i].Data))
		}
	}
	// A page stops at the message that reaches maxBytes, but holds one.
	page, err := s.MessagesPage("w", 3, 0, 1)
	must(t, err)
	if fmt.Sprint(seqs(page)) != "[4]" {
		t.Fatalf("page after 3 with 1 byte = %v, want [4]", seqs(page))
	}
	page, err = s.MessagesPage("w", 0, 0, chunkSize)
	must(t, err)
	if fmt.Sprint(seqs(page)) != "[1 2 3]" {
		t.Fatalf("page of %d bytes = %v, want [1 2 3]", chunkSize, seqs(page))
	}
	// Deleting the worker drops the pieces with it: a new log of the same
	// id starts empty.
	must(t, s.Records().PutSession("s", []byte(`{}`)))
	must(t, s.Records().PutWorker("s", "w", []byte(`{}`)))
	must(t, s.Records().DeleteWorker("s", "w"))
	if got, _ := s.MessagesAfter("w", 0, 0); len(got) != 0 {
		t.Fatalf("%d messages after delete", len(got))
	}
	mustWait(t, s.AppendMessages("w", []Message{{Seq: 1, UUID: "again", Data: []byte("x")}}))
	if got, _ := s.MessagesAfter("w", 0, 0); len(got) != 1 || string(got[0].Data) != "x" {
		t.Fatalf("after delete and append: %v", got)
	}
}

// TestLargeMessagesWrittenOnce checks what a commit costs after large
// messages: bbolt never splits a leaf of four keys, so with the data
// inline every append rewrote the last large messages into a buffer of
// their size. Allocations are the measure (not time): appending a small
// message after four of 4 MiB must allocate far less than one of them, and
// a large one less than three times its size (pages, plus bbolt's copy of
// the transaction when the file outgrows its map, which doubles).
func TestLargeMessagesWrittenOnce(t *testing.T) {
	s := newStore(t)
	const size = 4 << 20
	// Grow the map past its small sizes first: from 32 KiB, one commit
	// of 4 MiB would remap (and copy) seven times.
	mustWait(t, s.AppendMessages("warm-up", []Message{{Seq: 1, UUID: "w", Data: make([]byte, 4*size)}}))
	for seq := uint64(1); seq <= 4; seq++ {
		data := bigData(seq, size)
		got := allocated(func() {
			mustWait(t, s.AppendMessages("w", []Message{{Seq: seq, UUID: fmt.Sprint(seq), Data: data}}))
		})
		if got > 3*size {
			t.Errorf("appending %d bytes (seq %d) allocated %d", size, seq, got)
		}
	}
	got := allocated(func() { mustWait(t, s.AppendMessages("w", []Message{msg(5)})) })
	if got > size/4 {
		t.Errorf("appending a small message after large ones allocated %d bytes", got)
	}
}

func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
