package persist

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// OutputRange returns the committed output range of workerID: [start, end),
// start being the oldest byte kept and end just past the newest. The range
// may hold holes (see AppendOutput). It is (0, 0) when there is none.
func (s *Store) OutputRange(workerID string) (start, end int64, err error) {
	err = s.w.view(func(tx *bolt.Tx) error {
		if wb := tx.Bucket(bOutput).Bucket([]byte(workerID)); wb != nil {
			start, end = readMeta(wb)
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("output range of %s: %w", workerID, err)
	}
	return start, end, nil
}

// ReadOutput returns up to maxBytes of committed output starting at the
// first byte stored at or after from, and the offset where the returned
// data starts: past from when from lies before the start or in a hole. It
// stops at the next hole, so the data is contiguous. When from >= end it
// returns (nil, end, nil). The data is the caller's copy.
func (s *Store) ReadOutput(workerID string, from int64, maxBytes int) ([]byte, int64, error) {
	var out []byte
	err := s.w.view(func(tx *bolt.Tx) error {
		var start, end int64
		wb := tx.Bucket(bOutput).Bucket([]byte(workerID))
		if wb != nil {
			start, end = readMeta(wb)
		}
		if from >= end {
			from = end
			return nil
		}
		from = max(from, start)
		if maxBytes <= 0 {
			return nil
		}
		out, from = readChunks(wb.Bucket(kChunks), from, int(min(int64(maxBytes), end-from)))
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read output of %s at %d: %w", workerID, from, err)
	}
	return out, from, nil
}

// readChunks copies up to n bytes starting at from, which lies before the
// end, and returns where they start: later than from when from falls in a
// hole (before the first chunk kept, or between two chunks).
func readChunks(chunks *bolt.Bucket, from int64, n int) ([]byte, int64) {
	out := make([]byte, 0, n)
	c := chunks.Cursor()
	// The chunk holding from is the one with the greatest key <= from; when
	// there is none, from lies before the first chunk and reading starts
	// there.
	k, v := c.Seek(u64(uint64(from)))
	switch {
	case k == nil:
		k, v = c.Last()
	case int64(getU64(k)) > from:
		if pk, pv := c.Prev(); pk != nil {
			k, v = pk, pv
		} else {
			k, v = c.First()
		}
	}
	for ; k != nil && len(out) < n; k, v = c.Next() {
		v = chunkData(chunks, k, v)
		at := int64(getU64(k))
		if len(out) > 0 && at != from+int64(len(out)) {
			break // another hole: the caller reads on from there
		}
		skip := max(0, from-at)
		if skip >= int64(len(v)) {
			continue
		}
		if len(out) == 0 {
			from = at + skip
		}
		v = v[skip:]
		out = append(out, v[:min(len(v), n-len(out))]...)
	}
	return out, from
}
