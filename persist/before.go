package persist

import (
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// MessagesBefore returns up to limit messages with Seq < beforeSeq, newest
// first (beforeSeq 0: from the end of the log). Data is copied out of the
// transaction. An unknown worker has an empty log. It serves readers that
// look at a log's tail, as a restart does for a turn the crash cut.
func (s *Store) MessagesBefore(workerID string, beforeSeq uint64, limit int) ([]Message, error) {
	return s.MessagesBeforePage(workerID, beforeSeq, 0, limit, 0)
}

// MessagesBeforePage is MessagesBefore that also stops at afterSeq (it
// returns only messages with Seq > afterSeq) and once the messages it
// returns hold maxBytes of data (maxBytes <= 0: no bound); it returns at
// least one message when any is in the range. A chat opens on its newest
// page and reads older ones as the reader scrolls up.
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
