package persist

import (
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestStreamingOutputWrittenOnce appends output the way a streaming PTY
// Log does (512 KiB appends, the default cap, so the oldest chunks are
// dropped as it goes) and checks what the commits wrote: about each byte
// once. Chunks kept as values of one bucket were copied again by every
// commit that touched their leaf, three times the output in all.
func TestStreamingOutputWrittenOnce(t *testing.T) {
	s := openStore(t, dbPath(t), nil)
	const size, n = 512 << 10, 40 // 20 MiB through an 8 MiB cap
	alloc := func() int64 { st := s.db.Stats(); return st.TxStats.GetPageAlloc() }
	end := appendAll(t, s, "w", 0, size) // the buckets exist from here on
	before := alloc()
	for range n {
		end = appendAll(t, s, "w", end, size)
	}
	written := alloc() - before
	if limit := int64(size * n * 3 / 2); written > limit {
		t.Fatalf("commits wrote %d bytes of pages for %d bytes of output, want at most %d", written, size*n, limit)
	}
	checkOutput(t, s, "w", end, DefaultOutputCap)
	t.Logf("commits wrote %.2f bytes of pages per byte of output", float64(written)/float64(size*n))
}

// TestOutputOfOlderStores reads and drops chunks stored as values, as an
// older version stored every chunk, beside the ones stored in buckets.
func TestOutputOfOlderStores(t *testing.T) {
	s := openStore(t, dbPath(t), nil)
	const old = 128 << 10
	err := s.db.Update(func(tx *bolt.Tx) error {
		wb, err := tx.Bucket(bOutput).CreateBucket([]byte("w"))
		if err != nil {
			return err
		}
		chunks, err := wb.CreateBucket(kChunks)
		if err != nil {
			return err
		}
		for i := range 4 {
			if err := chunks.Put(u64(uint64(i*old)), pattern(i*old, old)); err != nil {
				return err
			}
		}
		return putMeta(wb, 0, 4*old, 4*old)
	})
	must(t, err)
	end := 4 * old
	for range 20 { // 10 MiB: the old chunks are dropped on the way
		end = appendAll(t, s, "w", end, 512<<10)
		checkOutput(t, s, "w", end, DefaultOutputCap)
	}
}
