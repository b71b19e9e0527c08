package persist

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The review comments of a session (docs/api-extensions.md, "Review
// comments"). The top-level bucket "comments" (created on first use) maps a
// session id to one JSON value owned by the caller: the session's comments.
// They are kept per session, like the queue, because a review outlives the
// workers that showed the diff; they are deleted with the session.
var bComments = []byte("comments")

// Comments returns the stored comments value of session sid, nil when it
// has none.
func (r *Records) Comments(sid string) ([]byte, error) {
	var out []byte
	err := r.w.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bComments); b != nil {
			if v := b.Get([]byte(sid)); v != nil {
				out = append([]byte(nil), v...)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("comments of %s: %w", sid, err)
	}
	return out, nil
}

// UpdateComments replaces the comments value of session sid with what fn
// returns for the stored one (nil when none), in one transaction; a nil or
// empty result deletes it. It fails with ErrNotFound when the session does
// not exist, so comments never outlive a session deleted meanwhile. An
// error from fn writes nothing and is returned wrapped with ErrAborted. fn
// runs on the store's writer: it must be quick and must not call the store.
func (r *Records) UpdateComments(sid string, fn func(old []byte) ([]byte, error)) error {
	if sid == "" {
		return fmt.Errorf("update comments: %w", ErrInvalid)
	}
	err := r.w.do(func(w *wtx) error {
		if !has(w.tx.Bucket(bSessions), []byte(sid)) {
			return ErrNotFound
		}
		b, err := w.tx.CreateBucketIfNotExists(bComments)
		if err != nil {
			return fmt.Errorf("create comments bucket: %w", err)
		}
		next, err := fn(b.Get([]byte(sid)))
		if err != nil {
			return fmt.Errorf("%w: %w", ErrAborted, err)
		}
		if len(next) == 0 {
			return b.Delete([]byte(sid))
		}
		return b.Put([]byte(sid), next)
	})
	if err != nil {
		return fmt.Errorf("update comments of %s: %w", sid, err)
	}
	return nil
}

// deleteComments drops sid's comments with its session.
func (w *wtx) deleteComments(sid []byte) error {
	if b := w.tx.Bucket(bComments); b != nil {
		return b.Delete(sid)
	}
	return nil
}
