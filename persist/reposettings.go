package persist

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bRepoSettings holds the per-repository settings for new worktrees:
//
//	reposettings  repository root path → value (the caller's JSON)
//
// created on first write; a read treats a missing bucket as empty.
var bRepoSettings = []byte("reposettings")

// PutRepoSettings stores the settings of the repository at root, replacing
// what was there. It returns after the commit.
func (r *Records) PutRepoSettings(root string, value []byte) error {
	if root == "" {
		return fmt.Errorf("put repo settings: %w", ErrInvalid)
	}
	v := bytes.Clone(value)
	err := r.w.do(func(w *wtx) error {
		b, err := w.tx.CreateBucketIfNotExists(bRepoSettings)
		if err != nil {
			return err
		}
		return b.Put([]byte(root), v)
	})
	if err != nil {
		return fmt.Errorf("put repo settings of %s: %w", root, err)
	}
	return nil
}

// RepoSettings returns the stored settings of the repository at root, nil
// when it has none.
func (r *Records) RepoSettings(root string) ([]byte, error) {
	var out []byte
	err := r.w.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bRepoSettings); b != nil {
			if v := b.Get([]byte(root)); v != nil {
				out = bytes.Clone(v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read repo settings of %s: %w", root, err)
	}
	return out, nil
}
