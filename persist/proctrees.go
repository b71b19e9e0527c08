package persist

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bTrees holds the descendants of recorded processes. It is created on
// first use, so older files need no migration.
var bTrees = []byte("proctrees")

// MaxTree bounds the members of one tree record.
const MaxTree = 4096

// Member is a descendant of a recorded process: its pid and start time, in
// the boot of its root's record.
type Member struct {
	Pid   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// tree is a tree record: the root it belongs to, and its members.
type tree struct {
	Pid   int      `json:"pid"`
	Start uint64   `json:"start"`
	Tree  []Member `json:"tree"`
}

// PutTree records the descendants of workerID's process root, replacing
// the last ones, so that a start after a crash finds them even when their
// parent is gone by then. It stores nothing (and returns nil) when root is
// no longer the worker's recorded process: a tree taken just before the
// record was deleted or replaced is stale. It returns after the commit.
func (s *Store) PutTree(workerID string, root Process, members []Member) error {
	if workerID == "" || root.Pid <= 0 || len(members) > MaxTree {
		return fmt.Errorf("put tree of %q (%d members): %w", workerID, len(members), ErrInvalid)
	}
	v, err := json.Marshal(tree{Pid: root.Pid, Start: root.Start, Tree: members})
	if err != nil {
		return fmt.Errorf("put tree of %s: %w", workerID, err)
	}
	err = s.w.do(func(w *wtx) error {
		cur := decodeProcess(w.tx.Bucket(bProcesses).Get([]byte(workerID)))
		if cur.Pid != root.Pid || cur.Start != root.Start {
			return nil
		}
		b, err := w.tx.CreateBucketIfNotExists(bTrees)
		if err != nil {
			return err
		}
		return b.Put([]byte(workerID), v)
	})
	if err != nil {
		return fmt.Errorf("put tree of %s: %w", workerID, err)
	}
	return nil
}

// Trees returns the recorded descendants by worker id: only those taken
// from the worker's recorded process. Unreadable records are skipped.
func (s *Store) Trees() (map[string][]Member, error) {
	out := make(map[string][]Member)
	err := s.w.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bTrees)
		if b == nil {
			return nil
		}
		procs := tx.Bucket(bProcesses)
		return b.ForEach(func(k, v []byte) error {
			var t tree
			p := decodeProcess(procs.Get(k))
			if json.Unmarshal(v, &t) == nil && t.Pid == p.Pid && t.Start == p.Start {
				out[string(k)] = t.Tree
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list trees: %w", err)
	}
	return out, nil
}

// deleteTree forgets the tree of workerID, whose process record goes or
// is replaced.
func deleteTree(tx *bolt.Tx, workerID string) error {
	if b := tx.Bucket(bTrees); b != nil {
		return b.Delete([]byte(workerID))
	}
	return nil
}
