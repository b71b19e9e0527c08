package persist

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Usage buckets (created on first write; reads treat a missing one as
// empty):
//
//	usage      day (YYYY-MM-DD) 0 worker id 0 seq (u64) → value: one
//	           counted result, so a date range is one Seek and a scan
//	usageidx   worker id 0 seq (u64) → day: the results already counted,
//	           so counting one again (live, then in a catch-up) is a no-op
//	usagemark  worker id → seq (u64): every message up to it was looked at
//	ratelimit  "latest" → value: the last rate-limit state reported
//
// The values are the caller's (JSON). Usage outlives its worker and
// session: the money was spent. It is small: one entry per turn.
var (
	bUsage     = []byte("usage")
	bUsageIdx  = []byte("usageidx")
	bUsageMark = []byte("usagemark")
	bRateLimit = []byte("ratelimit")
	kLatest    = []byte("latest")
)

// dayLen is the length of a YYYY-MM-DD day key.
const dayLen = 10

func usageIdxKey(workerID string, seq uint64) []byte {
	return append(append([]byte(workerID), 0), u64(seq)...)
}

// PutUsage queues the usage of the result at seq in workerID's log,
// counted on day (YYYY-MM-DD). A result already counted is left as it
// was, whatever its day, so callers may offer a result twice. It also
// raises the worker's usage mark to seq. The channel receives one value
// once committed or rejected (ErrInvalid for an empty id, seq 0 or a
// malformed day).
func (s *Store) PutUsage(workerID string, seq uint64, day string, val []byte) <-chan error {
	if workerID == "" || seq == 0 || len(day) != dayLen {
		return done(fmt.Errorf("put usage of %s at %d: %w", workerID, seq, ErrInvalid))
	}
	val = bytes.Clone(val)
	return s.w.enqueue(&op{size: len(val), apply: func(w *wtx) error {
		idx, err := w.tx.CreateBucketIfNotExists(bUsageIdx)
		if err != nil {
			return fmt.Errorf("put usage: %w", err)
		}
		ik := usageIdxKey(workerID, seq)
		if idx.Get(ik) == nil {
			ub, err := w.tx.CreateBucketIfNotExists(bUsage)
			if err != nil {
				return fmt.Errorf("put usage: %w", err)
			}
			if err := ub.Put(append([]byte(day+"\x00"), ik...), val); err != nil {
				return fmt.Errorf("put usage: %w", err)
			}
			if err := idx.Put(ik, []byte(day)); err != nil {
				return fmt.Errorf("put usage: %w", err)
			}
		}
		return w.raiseMark(workerID, seq)
	}})
}

// SetUsageMark raises workerID's usage mark to seq (never lowers it).
func (s *Store) SetUsageMark(workerID string, seq uint64) <-chan error {
	if workerID == "" {
		return done(fmt.Errorf("set usage mark: %w", ErrInvalid))
	}
	return s.w.enqueue(&op{apply: func(w *wtx) error { return w.raiseMark(workerID, seq) }})
}

func (w *wtx) raiseMark(workerID string, seq uint64) error {
	mb, err := w.tx.CreateBucketIfNotExists(bUsageMark)
	if err != nil {
		return fmt.Errorf("usage mark: %w", err)
	}
	if getU64(mb.Get([]byte(workerID))) >= seq {
		return nil
	}
	return mb.Put([]byte(workerID), u64(seq))
}

// UsageMark returns workerID's usage mark: the seq up to which its log
// was looked at for usage (0 when never).
func (s *Store) UsageMark(workerID string) (uint64, error) {
	var seq uint64
	err := s.w.view(func(tx *bolt.Tx) error {
		if mb := tx.Bucket(bUsageMark); mb != nil {
			seq = getU64(mb.Get([]byte(workerID)))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("usage mark of %s: %w", workerID, err)
	}
	return seq, nil
}

// UsageRange calls fn with the value of every counted result from day
// from to day to (YYYY-MM-DD, both included), in day order. fn must not
// keep val: it is valid only during the call. Its cost is the number of
// results in the range, not the size of the message logs.
func (s *Store) UsageRange(from, to string, fn func(val []byte) error) error {
	if len(from) != dayLen || len(to) != dayLen {
		return fmt.Errorf("usage range %q..%q: %w", from, to, ErrInvalid)
	}
	err := s.w.view(func(tx *bolt.Tx) error {
		ub := tx.Bucket(bUsage)
		if ub == nil {
			return nil
		}
		c := ub.Cursor()
		for k, v := c.Seek([]byte(from)); k != nil && string(k[:dayLen]) <= to; k, v = c.Next() {
			if err := fn(v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("usage range %s..%s: %w", from, to, err)
	}
	return nil
}

// PutRateLimit queues val as the latest rate-limit state.
func (r *Records) PutRateLimit(val []byte) <-chan error {
	val = bytes.Clone(val)
	return r.w.enqueue(&op{size: len(val), apply: func(w *wtx) error {
		b, err := w.tx.CreateBucketIfNotExists(bRateLimit)
		if err != nil {
			return fmt.Errorf("put rate limit: %w", err)
		}
		return b.Put(kLatest, val)
	}})
}

// RateLimit returns the latest rate-limit state stored, nil when none.
func (r *Records) RateLimit() ([]byte, error) {
	var out []byte
	err := r.w.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bRateLimit); b != nil {
			out = bytes.Clone(b.Get(kLatest))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("rate limit: %w", err)
	}
	return out, nil
}
