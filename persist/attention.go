package persist

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bAttention holds what the attention list ("needs you") remembers across
// a restart: the turns that finished unseen and when each wait began
// (worker/attention):
//
//	attention  "marks" → value (the caller's JSON)
//
// created on first write; a read treats a missing bucket as empty.
var (
	bAttention = []byte("attention")
	kMarks     = []byte("marks")
)

// PutAttentionMarks queues val as the attention list's marks, replacing
// what was there. The channel receives one value once committed.
func (r *Records) PutAttentionMarks(val []byte) <-chan error {
	val = bytes.Clone(val)
	return r.w.enqueue(&op{size: len(val), apply: func(w *wtx) error {
		b, err := w.tx.CreateBucketIfNotExists(bAttention)
		if err != nil {
			return fmt.Errorf("put attention marks: %w", err)
		}
		return b.Put(kMarks, val)
	}})
}

// AttentionMarks returns the attention list's marks, nil when none were
// stored.
func (r *Records) AttentionMarks() ([]byte, error) {
	var out []byte
	err := r.w.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bAttention); b != nil {
			out = bytes.Clone(b.Get(kMarks))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("attention marks: %w", err)
	}
	return out, nil
}
