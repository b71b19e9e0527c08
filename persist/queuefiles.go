package persist

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The files of queued messages. A queued item refers to its attachments
// (QueueItem.Files); their bytes live in the top-level bucket "queuefiles",
// one bucket per session laid out as a worker's attachments are (blobs.go).
// They are written in the transaction that adds the item, and every write
// of a session's queue (putQueue) drops the files no item refers to any
// more: a removed item, a delivered one (whose message then holds its own
// copy, written in that same transaction), a deleted session. So the files
// never outlive their items and never go before them.
var bQueueFiles = []byte("queuefiles")

// QueueFile is a queued item's reference to one of its files.
type QueueFile struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	MediaType string `json:"mediaType"`
	Size      int    `json:"size"`
}

// UpdateQueueFiles is UpdateQueue that also stores blobs, the files of
// the items fn adds, in the same transaction. Blobs no item refers to
// after fn are not kept.
func (s *Store) UpdateQueueFiles(sid string, blobs []Blob, fn func([]QueueItem) ([]QueueItem, error)) ([]QueueItem, error) {
	for _, b := range blobs {
		if b.ID == "" {
			return nil, fmt.Errorf("update queue of %s: a file has no id: %w", sid, ErrInvalid)
		}
	}
	return s.updateQueue(sid, func(w *wtx) error { return w.putQueueFiles([]byte(sid), blobs) }, fn)
}

// QueueFile returns the bytes of file id of session sid's queue;
// ErrNotFound when no item holds it.
func (s *Store) QueueFile(sid, id string) ([]byte, error) {
	var data []byte
	err := s.w.view(func(tx *bolt.Tx) error {
		bb := queueFileBucket(tx, []byte(sid), id)
		if bb == nil {
			return ErrNotFound
		}
		data = blobData(bb)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("queued file %s of %s: %w", id, sid, err)
	}
	return data, nil
}

func queueFileBucket(tx *bolt.Tx, sid []byte, id string) *bolt.Bucket {
	b := tx.Bucket(bQueueFiles)
	if b == nil || id == "" {
		return nil
	}
	if b = b.Bucket(sid); b == nil {
		return nil
	}
	if b = b.Bucket(kAttach); b == nil {
		return nil
	}
	return b.Bucket([]byte(id))
}

// putQueueFiles stores blobs as files of sid's queue. A duplicate id is
// refused before anything is written (a rejection, see op).
func (w *wtx) putQueueFiles(sid []byte, blobs []Blob) error {
	if len(blobs) == 0 {
		return nil
	}
	for _, b := range blobs {
		if queueFileBucket(w.tx, sid, b.ID) != nil {
			return fmt.Errorf("queued file %s: %w", b.ID, ErrDuplicate)
		}
	}
	all, err := w.tx.CreateBucketIfNotExists(bQueueFiles)
	if err != nil {
		return fmt.Errorf("create queue files bucket: %v", err) // %v: not a rejection
	}
	sb, err := all.CreateBucketIfNotExists(sid)
	if err != nil {
		return fmt.Errorf("create queue files of %s: %v", sid, err)
	}
	return putBlobs(sb, blobs)
}

// collectQueueFiles drops the files of sid that no item of items refers
// to, and the session's bucket when none is left.
func (w *wtx) collectQueueFiles(sid []byte, items []QueueItem) error {
	all := w.tx.Bucket(bQueueFiles)
	if all == nil || all.Bucket(sid) == nil {
		return nil
	}
	keep := map[string]bool{}
	for _, it := range items {
		for _, f := range it.Files {
			keep[f.ID] = true
		}
	}
	if len(keep) == 0 {
		return all.DeleteBucket(sid)
	}
	ab := all.Bucket(sid).Bucket(kAttach)
	if ab == nil {
		return nil
	}
	var drop [][]byte
	c := ab.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil && !keep[string(k)] {
			drop = append(drop, bytes.Clone(k))
		}
	}
	for _, k := range drop {
		if err := ab.DeleteBucket(k); err != nil {
			return fmt.Errorf("drop queued file %s: %w", k, err)
		}
	}
	return nil
}

// blobData is the data of an attachment bucket, its pieces in order.
func blobData(bb *bolt.Bucket) []byte {
	n := 0
	c := bb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) == 4 {
			n += len(v)
		}
	}
	data := make([]byte, 0, n)
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) == 4 {
			data = append(data, v...)
		}
	}
	return data
}

// QueueFileIDs lists the ids of the files stored for sid's queue (those
// of its items: see collectQueueFiles).
func (s *Store) QueueFileIDs(sid string) ([]string, error) {
	var ids []string
	err := s.w.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bQueueFiles)
		if b == nil || b.Bucket([]byte(sid)) == nil || b.Bucket([]byte(sid)).Bucket(kAttach) == nil {
			return nil
		}
		return b.Bucket([]byte(sid)).Bucket(kAttach).ForEachBucket(func(k []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("queued files of %s: %w", sid, err)
	}
	return ids, nil
}
