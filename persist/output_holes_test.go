package persist

import (
	"bytes"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// crashRun appends n bytes at the writer's next offset, then reserves hole
// offsets past them that are never stored, like a writer that showed them
// live and crashed. It returns the bytes stored.
func crashRun(t *testing.T, s *Store, id string, n, hole int) []byte {
	t.Helper()
	next, err := s.OutputNext(id)
	must(t, err)
	data := pattern(int(next), n)
	mustWait(t, s.AppendOutput(id, next, bytes.Clone(data)))
	mustWait(t, s.ReserveOutput(id, next+int64(n+hole)))
	return data
}

// readAll reads every stored byte from from on, hole by hole, and checks
// that each piece is the pattern at its offset.
func readAll(t *testing.T, s *Store, id string, from int64) (out []byte, pieces int) {
	t.Helper()
	_, end, err := s.OutputRange(id)
	must(t, err)
	for range 10_000 { // bounded: each pass reads a piece or ends
		data, at, err := s.ReadOutput(id, from, 1<<20)
		must(t, err)
		if len(data) == 0 {
			if at != end {
				t.Fatalf("empty read at %d, before the end %d", at, end)
			}
			return out, pieces
		}
		if at < from || !bytes.Equal(data, pattern(int(at), len(data))) {
			t.Fatalf("read at %d returned %d wrong bytes at %d", from, len(data), at)
		}
		out, pieces, from = append(out, data...), pieces+1, at+int64(len(data))
	}
	t.Fatal("read did not end")
	return nil, 0
}

// keptBytes is the sum of the stored chunks' lengths.
func keptBytes(t *testing.T, s *Store, id string) int64 {
	t.Helper()
	_, lens := chunkKeys(t, s, id)
	var n int64
	for _, l := range lens {
		n += int64(l)
	}
	return n
}

// TestOutputHolesTakeNoRoom: holes left by crashes do not count against
// the cap. Twelve crashes, each leaving a hole larger than the cap, keep
// every stored byte; the cap then drops the oldest stored bytes only once
// the stored bytes exceed it.
func TestOutputHolesTakeNoRoom(t *testing.T) {
	const cap, run, hole = 1000, 50, 5000
	s := openStore(t, dbPath(t), &Options{OutputCap: cap})
	var want []byte
	for range 12 {
		want = append(want, crashRun(t, s, "w", run, hole)...)
	}
	got, pieces := readAll(t, s, "w", 0)
	if !bytes.Equal(got, want) || pieces != 12 {
		t.Fatalf("read %d bytes in %d pieces, want %d in 12", len(got), pieces, len(want))
	}
	if start, _, _ := s.OutputRange("w"); start != 0 || keptBytes(t, s, "w") != int64(len(want)) {
		t.Fatalf("start %d, size %d; want 0, %d", start, keptBytes(t, s, "w"), len(want))
	}
	// Past the cap, the oldest runs go; the start is the oldest byte kept.
	for range 20 {
		want = append(want, crashRun(t, s, "w", run, hole)...)
	}
	got, _ = readAll(t, s, "w", 0)
	size := keptBytes(t, s, "w")
	if size != int64(len(got)) || size > cap || size <= cap-int64(s.chunkMax) || !bytes.HasSuffix(want, got) {
		t.Fatalf("kept %d bytes (size %d), cap %d, chunk %d", len(got), size, cap, s.chunkMax)
	}
	start, _, _ := s.OutputRange("w")
	if data, at, _ := s.ReadOutput("w", start, 1); at != start || len(data) != 1 {
		t.Fatalf("start %d is not a stored byte: read %d at %d", start, len(data), at)
	}
}

// TestReadOutputBeforeFirstChunk: a writer crashed before storing
// anything, so the first stored byte lies past a hole. Reading from 0 (or
// anywhere in the hole) returns it instead of nothing.
func TestReadOutputBeforeFirstChunk(t *testing.T) {
	s := newStore(t)
	mustWait(t, s.ReserveOutput("w", 100))
	next, err := s.OutputNext("w")
	if err != nil || next != 100 {
		t.Fatalf("next = %d, %v; want 100", next, err)
	}
	mustWait(t, s.AppendOutput("w", 100, []byte("abc")))
	for _, from := range []int64{0, 1, 99, 100} {
		if data, at, err := s.ReadOutput("w", from, 10); err != nil || string(data) != "abc" || at != 100 {
			t.Errorf("read from %d: %q at %d, %v; want abc at 100", from, data, at, err)
		}
	}
	if start, end, _ := s.OutputRange("w"); start != 100 || end != 103 {
		t.Errorf("range %d..%d, want 100..103", start, end)
	}
	// Earlier versions left the start at 0 (or inside a hole): reads from
	// there find the first chunk too.
	must(t, s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bOutput).Bucket([]byte("w")).Put(kMeta, append(u64(0), u64(103)...))
	}))
	if data, at, err := s.ReadOutput("w", 0, 10); err != nil || string(data) != "abc" || at != 100 {
		t.Errorf("read from 0 with start 0: %q at %d, %v; want abc at 100", data, at, err)
	}
}
