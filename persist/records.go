package persist

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Records are the domain's own records, small values the caller owns
// (JSON): sessions and their workers, review comments, per-repository
// settings, the rate-limit state and the attention marks; the workers'
// logs (messages, output, queue, usage) are Store's own methods. Safe for
// concurrent use; writes go through the store's writer like every other.
type Records struct{ w *writer }

// Records returns the store's records.
func (s *Store) Records() *Records { return s.rec }

// Record is one stored session or worker: its id and the caller's opaque
// (JSON) value.
type Record struct {
	ID    string
	Value []byte
}

// PutSession creates or replaces session id. It returns after the commit.
func (r *Records) PutSession(id string, value []byte) error {
	if id == "" {
		return fmt.Errorf("put session: %w", ErrInvalid)
	}
	v := bytes.Clone(value) // the caller may reuse value before the commit
	err := r.w.do(func(w *wtx) error {
		return w.tx.Bucket(bSessions).Put([]byte(id), v)
	})
	if err != nil {
		return fmt.Errorf("put session %s: %w", id, err)
	}
	return nil
}

// DeleteSession deletes session id with its workers and each worker's
// messages, output and process record. It returns ErrNotFound when the
// session does not exist.
func (r *Records) DeleteSession(id string) error {
	if err := r.w.do(func(w *wtx) error { return w.deleteSession([]byte(id)) }); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

func (w *wtx) deleteSession(id []byte) error {
	sessions := w.tx.Bucket(bSessions)
	if len(id) == 0 || !has(sessions, id) {
		return ErrNotFound
	}
	all := w.tx.Bucket(bWorkers)
	if wb := all.Bucket(id); wb != nil {
		// Collect first: deleting while a cursor walks the bucket skips keys.
		var ids []string
		c := wb.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			ids = append(ids, string(k))
		}
		for _, wid := range ids {
			if err := w.dropWorkerData(wid); err != nil {
				return err
			}
		}
		if err := all.DeleteBucket(id); err != nil {
			return fmt.Errorf("delete workers: %w", err)
		}
	}
	if err := w.deleteQueue(id); err != nil {
		return err
	}
	if err := w.deleteComments(id); err != nil {
		return err
	}
	return sessions.Delete(id)
}

// Sessions returns every session in key order.
func (r *Records) Sessions() ([]Record, error) {
	var out []Record
	err := r.w.view(func(tx *bolt.Tx) error {
		out = records(tx.Bucket(bSessions))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// PutWorker creates or replaces worker workerID of session sessionID. It
// returns ErrNotFound when the session does not exist, so no worker outlives
// its session.
func (r *Records) PutWorker(sessionID, workerID string, value []byte) error {
	if sessionID == "" || workerID == "" {
		return fmt.Errorf("put worker: %w", ErrInvalid)
	}
	v := bytes.Clone(value)
	err := r.w.do(func(w *wtx) error {
		sid := []byte(sessionID)
		if !has(w.tx.Bucket(bSessions), sid) {
			return ErrNotFound
		}
		wb, err := w.tx.Bucket(bWorkers).CreateBucketIfNotExists(sid)
		if err != nil {
			return fmt.Errorf("create workers bucket: %w", err)
		}
		return wb.Put([]byte(workerID), v)
	})
	if err != nil {
		return fmt.Errorf("put worker %s/%s: %w", sessionID, workerID, err)
	}
	return nil
}

// DeleteWorker deletes a worker with its messages, output and process
// record. It returns ErrNotFound when the worker does not exist.
func (r *Records) DeleteWorker(sessionID, workerID string) error {
	err := r.w.do(func(w *wtx) error {
		wb := w.tx.Bucket(bWorkers).Bucket([]byte(sessionID))
		if workerID == "" || wb == nil || !has(wb, []byte(workerID)) {
			return ErrNotFound
		}
		if err := w.dropWorkerData(workerID); err != nil {
			return err
		}
		return wb.Delete([]byte(workerID))
	})
	if err != nil {
		return fmt.Errorf("delete worker %s/%s: %w", sessionID, workerID, err)
	}
	return nil
}

// Workers returns the workers of a session in key order (creation order for
// uuid v7 ids). It returns ErrNotFound when the session does not exist.
func (r *Records) Workers(sessionID string) ([]Record, error) {
	var out []Record
	err := r.w.view(func(tx *bolt.Tx) error {
		sid := []byte(sessionID)
		if sessionID == "" || !has(tx.Bucket(bSessions), sid) {
			return ErrNotFound
		}
		if wb := tx.Bucket(bWorkers).Bucket(sid); wb != nil {
			out = records(wb)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list workers of %s: %w", sessionID, err)
	}
	return out, nil
}

// dropWorkerData deletes a worker's messages, output (stored and pending in
// this pass) and process record.
func (w *wtx) dropWorkerData(workerID string) error {
	id := []byte(workerID)
	delete(w.out, workerID)
	for _, name := range [][]byte{bMessages, bOutput} {
		b := w.tx.Bucket(name)
		if b.Bucket(id) == nil {
			continue
		}
		if err := b.DeleteBucket(id); err != nil {
			return fmt.Errorf("delete %s of %s: %w", name, workerID, err)
		}
	}
	if err := w.tx.Bucket(bProcesses).Delete(id); err != nil {
		return fmt.Errorf("delete process of %s: %w", workerID, err)
	}
	return w.dropPending(id)
}
