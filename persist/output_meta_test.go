package persist

import (
	"bytes"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// storedSize is the size the meta records (or counts, for an old meta).
func storedSize(t *testing.T, s *Store, id string) int64 {
	t.Helper()
	var size int64
	must(t, s.db.View(func(tx *bolt.Tx) error {
		size = readSize(tx.Bucket(bOutput).Bucket([]byte(id)))
		return nil
	}))
	return size
}

// TestOutputSizeOfOldMeta: a database written before the stored size was
// recorded (a 16-byte meta, start and end only) gets its size counted from
// the chunks, so its holes do not count either.
func TestOutputSizeOfOldMeta(t *testing.T) {
	const cap = 1000
	s := openStore(t, dbPath(t), &Options{OutputCap: cap})
	var want []byte
	for range 3 {
		want = append(want, crashRun(t, s, "w", 100, 5000)...)
	}
	must(t, s.db.Update(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bOutput).Bucket([]byte("w"))
		start, end := readMeta(wb)
		return wb.Put(kMeta, append(u64(uint64(start)), u64(uint64(end))...))
	}))
	if size := storedSize(t, s, "w"); size != 300 {
		t.Fatalf("size of the old meta = %d, want 300", size)
	}
	want = append(want, crashRun(t, s, "w", 100, 5000)...)
	if got, _ := readAll(t, s, "w", 0); !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want %d", len(got), len(want))
	}
	if size := storedSize(t, s, "w"); size != 400 || size != keptBytes(t, s, "w") {
		t.Fatalf("size after a write = %d, want 400", size)
	}
}
