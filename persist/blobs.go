package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Attachments. The files a person attaches to a message are kept out of
// the message itself, which holds only a reference, so that replaying or
// paging the log never carries them. They live in the worker's message
// bucket, under "a": one bucket per attachment id holding its meta (key
// "m", the caller's bytes) and its data in chunkSize pieces (4-byte
// big-endian piece numbers). They are written in the transaction of the
// message that refers to them (Message.Blobs), so a message is never
// stored without its files nor files without their message, and they go
// with the worker's log.

var (
	kAttach   = []byte("a")
	kBlobMeta = []byte("m")
)

// Blob is a file stored with a message: an id unique in the worker's log,
// the caller's meta bytes and the data.
type Blob struct {
	ID   string
	Meta []byte
	Data []byte
}

// checkBlobs rejects, before anything is written, a blob id the log holds
// already.
func checkBlobs(wb *bolt.Bucket, recs []encMsg) error {
	ab := wb.Bucket(kAttach)
	if ab == nil {
		return nil
	}
	for _, r := range recs {
		for _, b := range r.blobs {
			if ab.Bucket([]byte(b.ID)) != nil {
				return fmt.Errorf("attachment %s: %w", b.ID, ErrDuplicate)
			}
		}
	}
	return nil
}

// putBlobs stores a message's blobs (checked by encodeMessages and
// checkBlobs: a failure here is not a rejection).
func putBlobs(wb *bolt.Bucket, blobs []Blob) error {
	if len(blobs) == 0 {
		return nil
	}
	ab, err := wb.CreateBucketIfNotExists(kAttach)
	if err != nil {
		return fmt.Errorf("create attachment bucket: %w", err)
	}
	for _, b := range blobs {
		bb, err := ab.CreateBucket([]byte(b.ID))
		if err != nil {
			return fmt.Errorf("create attachment %s: %v", b.ID, err) // %v: not a rejection
		}
		bb.FillPercent = logFill
		if err := bb.Put(kBlobMeta, b.Meta); err != nil {
			return fmt.Errorf("put meta of attachment %s: %w", b.ID, err)
		}
		data := b.Data
		for i := uint32(0); len(data) > 0; i++ {
			n := min(len(data), chunkSize)
			if err := bb.Put(binary.BigEndian.AppendUint32(nil, i), data[:n]); err != nil {
				return fmt.Errorf("put attachment %s: %w", b.ID, err)
			}
			data = data[n:]
		}
	}
	return nil
}

// Blob returns the meta and data of an attachment of the worker's log,
// copied out of the transaction; ErrNotFound when there is none.
func (s *Store) Blob(workerID, id string) (meta, data []byte, err error) {
	err = s.w.view(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bMessages).Bucket([]byte(workerID))
		if wb == nil || id == "" {
			return ErrNotFound
		}
		ab := wb.Bucket(kAttach)
		if ab == nil {
			return ErrNotFound
		}
		bb := ab.Bucket([]byte(id))
		if bb == nil {
			return ErrNotFound
		}
		meta = bytes.Clone(bb.Get(kBlobMeta))
		n := 0
		c := bb.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) == 4 {
				n += len(v)
			}
		}
		data = make([]byte, 0, n)
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) == 4 {
				data = append(data, v...)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("attachment %s of %s: %w", id, workerID, err)
	}
	return meta, data, nil
}
