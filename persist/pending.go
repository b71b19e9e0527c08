package persist

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The pending permission requests of sdk workers (docs/api-extensions.md,
// "Pending requests across a restart"): what a worker needs to show a
// request again and answer it after the server restarted. The top-level
// bucket "pending" (created on first use) holds one sub-bucket per worker
// id, which maps a request id to the worker's opaque record. A record is
// written when the request arrives and deleted when it is answered.
var bPending = []byte("pending")

// PendingRecord is one stored pending request.
type PendingRecord struct {
	ID   string
	Data []byte
}

// PutPending stores the record of request id of worker workerID and waits
// for the commit.
func (s *Store) PutPending(workerID, id string, data []byte) error {
	if workerID == "" || id == "" {
		return fmt.Errorf("put pending request: %w", ErrInvalid)
	}
	err := s.w.do(func(w *wtx) error {
		root, err := w.tx.CreateBucketIfNotExists(bPending)
		if err != nil {
			return fmt.Errorf("create pending bucket: %w", err)
		}
		b, err := root.CreateBucketIfNotExists([]byte(workerID))
		if err != nil {
			return fmt.Errorf("create pending bucket of worker: %w", err)
		}
		return b.Put([]byte(id), data)
	})
	if err != nil {
		return fmt.Errorf("put pending request %s of %s: %w", id, workerID, err)
	}
	return nil
}

// DeletePending deletes the records of the given requests of worker
// workerID (all of them when ids is empty) and waits for the commit.
// Unknown ids are no error.
func (s *Store) DeletePending(workerID string, ids ...string) error {
	err := s.w.do(func(w *wtx) error {
		if len(ids) == 0 {
			return w.dropPending([]byte(workerID))
		}
		root := w.tx.Bucket(bPending)
		if root == nil || root.Bucket([]byte(workerID)) == nil {
			return nil
		}
		b := root.Bucket([]byte(workerID))
		for _, id := range ids {
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete pending requests of %s: %w", workerID, err)
	}
	return nil
}

// Pending returns the stored pending requests of worker workerID in
// request id order; none when it has none.
func (s *Store) Pending(workerID string) ([]PendingRecord, error) {
	var out []PendingRecord
	err := s.w.view(func(tx *bolt.Tx) error {
		root := tx.Bucket(bPending)
		if root == nil {
			return nil
		}
		b := root.Bucket([]byte(workerID))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			out = append(out, PendingRecord{ID: string(k), Data: append([]byte(nil), v...)})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("pending requests of %s: %w", workerID, err)
	}
	return out, nil
}

// dropPending deletes every pending record of a worker: with the worker.
func (w *wtx) dropPending(workerID []byte) error {
	root := w.tx.Bucket(bPending)
	if root == nil || root.Bucket(workerID) == nil {
		return nil
	}
	if err := root.DeleteBucket(workerID); err != nil {
		return fmt.Errorf("delete pending requests of %s: %w", workerID, err)
	}
	return nil
}
