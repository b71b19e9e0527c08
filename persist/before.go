package persist

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// MessagesBefore returns up to limit messages with Seq < beforeSeq, newest
// first (beforeSeq 0: from the end of the log). Data is copied out of the
// transaction. An unknown worker has an empty log. It serves readers that
// look at a log's tail, as a restart does for a turn the crash cut.
func (s *Store) MessagesBefore(workerID string, beforeSeq uint64, limit int) ([]Message, error) {
	var out []Message
	err := s.w.view(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bMessages).Bucket([]byte(workerID))
		if wb == nil || limit <= 0 {
			return nil
		}
		c := wb.Bucket(kSeq).Cursor()
		k, v := c.Last()
		if beforeSeq > 0 {
			if k, v = c.Seek(u64(beforeSeq)); k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		}
		for ; k != nil && len(out) < limit; k, v = c.Prev() {
			m, err := decodeMessage(k, v)
			if err != nil {
				return err
			}
			if len(m.Data) == 0 {
				m.Data = readBlob(wb, m.Seq)
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("messages of %s before %d: %w", workerID, beforeSeq, err)
	}
	return out, nil
}
