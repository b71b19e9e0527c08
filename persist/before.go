package persist

import (
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// MessagesBeforePage returns up to limit messages with Seq < beforeSeq,
// newest first (beforeSeq 0: from the end of the log), and with Seq >
// afterSeq, stopping once they hold maxBytes of data (maxBytes <= 0: no
// bound); it returns at least one message when any is in the range. Data
// is copied out of the transaction. An unknown worker has an empty log.
// Readers of a log's tail use it (a restart, for a turn the crash cut),
// and a chat opens on its newest page and reads older ones as the reader
// scrolls up.
func (s *Store) MessagesBeforePage(workerID string, beforeSeq, afterSeq uint64, limit, maxBytes int) ([]Message, error) {
	if maxBytes <= 0 {
		maxBytes = math.MaxInt
	}
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
		size := 0
		for ; k != nil && len(out) < limit && size < maxBytes; k, v = c.Prev() {
			if getU64(k) <= afterSeq {
				break
			}
			m, err := decodeMessage(k, v)
			if err != nil {
				return err
			}
			if len(m.Data) == 0 {
				m.Data = readBlob(wb, m.Seq)
			}
			out = append(out, m)
			size += len(m.Data)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("messages of %s before %d: %w", workerID, beforeSeq, err)
	}
	return out, nil
}
