package persist

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// PutProcess records that workerID runs in process group pgid, so a start
// after a crash can end it. It returns after the commit.
func (s *Store) PutProcess(workerID string, pgid int) error {
	if workerID == "" || pgid <= 0 {
		return fmt.Errorf("put process %q %d: %w", workerID, pgid, ErrInvalid)
	}
	err := s.do(func(w *wtx) error {
		return w.tx.Bucket(bProcesses).Put([]byte(workerID), u64(uint64(pgid)))
	})
	if err != nil {
		return fmt.Errorf("put process of %s: %w", workerID, err)
	}
	return nil
}

// DeleteProcess forgets the process group of workerID. Deleting a record
// that does not exist is not an error: stopping a worker and the crash
// clean-up may both do it.
func (s *Store) DeleteProcess(workerID string) error {
	if workerID == "" {
		return fmt.Errorf("delete process: %w", ErrInvalid)
	}
	err := s.do(func(w *wtx) error {
		return w.tx.Bucket(bProcesses).Delete([]byte(workerID))
	})
	if err != nil {
		return fmt.Errorf("delete process of %s: %w", workerID, err)
	}
	return nil
}

// Processes returns every recorded process group by worker id.
func (s *Store) Processes() (map[string]int, error) {
	out := make(map[string]int)
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bProcesses).ForEach(func(k, v []byte) error {
			out[string(k)] = int(getU64(v))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	return out, nil
}
