package persist

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bRuns holds the server runs that started children and did not end them
// yet. It is created on first use, so older files need no migration.
var bRuns = []byte("runs")

// Process is what is recorded of a worker's process: enough to tell it,
// after a crash, from an unrelated process that reused its pid.
type Process struct {
	// Pid is the process id; the process leads its own group (pgid = pid).
	Pid int `json:"pid"`
	// Start is the start time from /proc/<pid>/stat (field 22), 0 when
	// unknown.
	Start uint64 `json:"start"`
	// Marker is the AGENTDESK_WORKER value in the process's environment,
	// "" when unknown.
	Marker string `json:"marker"`
	// Boot is the kernel's boot id when Start was read, "" in records of
	// older versions (which then need the marker to be believed).
	Boot string `json:"boot,omitempty"`
}

// HasIdentity reports whether p can be checked against a live process. A
// record written before identities were recorded has only a pid: it must
// never be signalled.
func (p Process) HasIdentity() bool { return p.Start != 0 && (p.Marker != "" || p.Boot != "") }

// PutProcess records that workerID runs process p, so a start after a
// crash can end it. It returns after the commit.
func (s *Store) PutProcess(workerID string, p Process) error {
	if workerID == "" || p.Pid <= 0 {
		return fmt.Errorf("put process %q %d: %w", workerID, p.Pid, ErrInvalid)
	}
	v, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("put process of %s: %w", workerID, err)
	}
	err = s.w.do(func(w *wtx) error {
		if err := deleteTree(w.tx, workerID); err != nil {
			return err
		}
		return w.tx.Bucket(bProcesses).Put([]byte(workerID), v)
	})
	if err != nil {
		return fmt.Errorf("put process of %s: %w", workerID, err)
	}
	return nil
}

// DeleteProcess forgets the process of workerID. Deleting a record that
// does not exist is not an error: stopping a worker and the crash clean-up
// may both do it.
func (s *Store) DeleteProcess(workerID string) error {
	if workerID == "" {
		return fmt.Errorf("delete process: %w", ErrInvalid)
	}
	err := s.w.do(func(w *wtx) error {
		if err := deleteTree(w.tx, workerID); err != nil {
			return err
		}
		return w.tx.Bucket(bProcesses).Delete([]byte(workerID))
	})
	if err != nil {
		return fmt.Errorf("delete process of %s: %w", workerID, err)
	}
	return nil
}

// Processes returns every recorded process by worker id. Records of older
// versions (a bare process group id) come back with only Pid set.
func (s *Store) Processes() (map[string]Process, error) {
	out := make(map[string]Process)
	err := s.w.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bProcesses).ForEach(func(k, v []byte) error {
			out[string(k)] = decodeProcess(v)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	return out, nil
}

// decodeProcess reads a record: JSON, or the 8-byte big-endian pgid that
// older versions wrote. Anything unreadable has no pid and is skipped by
// the clean-up.
func decodeProcess(v []byte) Process {
	if len(v) == 8 && v[0] != '{' {
		return Process{Pid: int(getU64(v))}
	}
	var p Process
	if json.Unmarshal(v, &p) != nil {
		return Process{}
	}
	return p
}

// PutRun records that run id (a random id per server start) is about to
// start children, before it starts any: a start after a crash then ends
// every process marked with it, even one whose own record never made it.
func (s *Store) PutRun(id string) error {
	if id == "" {
		return fmt.Errorf("put run: %w", ErrInvalid)
	}
	err := s.w.do(func(w *wtx) error {
		b, err := w.tx.CreateBucketIfNotExists(bRuns)
		if err != nil {
			return err
		}
		return b.Put([]byte(id), nil)
	})
	if err != nil {
		return fmt.Errorf("put run %s: %w", id, err)
	}
	return nil
}

// DeleteRun forgets run id: its children are all ended.
func (s *Store) DeleteRun(id string) error {
	if id == "" {
		return fmt.Errorf("delete run: %w", ErrInvalid)
	}
	err := s.w.do(func(w *wtx) error {
		if b := w.tx.Bucket(bRuns); b != nil {
			return b.Delete([]byte(id))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete run %s: %w", id, err)
	}
	return nil
}

// Runs returns the recorded runs, in id order.
func (s *Store) Runs() ([]string, error) {
	var out []string
	err := s.w.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bRuns)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			out = append(out, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return out, nil
}
