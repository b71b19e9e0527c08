// Package persist is agentdesk's storage and the only package that imports
// bbolt. It owns one database file holding:
//
//   - sessions and workers, as opaque JSON values owned by the caller;
//   - an append-only message log per worker, keyed by sequence number, with a
//     uuid→sequence index so "after uuid X" is one Get and one Seek;
//   - PTY output per worker, addressed by absolute byte offset and bounded by
//     a size cap (the oldest chunks are dropped, offsets are never reused);
//   - the processes the server started, with what identifies them (start
//     time, environment marker), and the runs that started them, so a start
//     after a crash can end leftovers and nothing else.
//
// All writes go through one writer goroutine that commits everything queued
// in one bbolt transaction (group commit): one fsync serves many writes.
// Reads open their own read transactions and copy values out, so they never
// wait for the writer.
//
// Bucket layout (top-level buckets and what they hold):
//
//	sessions   session id → value
//	workers    session id → {worker id → value}
//	messages   worker id → {"s": seq (big-endian u64) → uvarint(len uuid) uuid data,
//	                        "u": uuid → seq, "n": message count,
//	                        "b": seq|chunk (u64, u32) → data of a message over
//	                             256 KiB, whose "s" value then holds no data}
//	output     worker id → {"m": start|end|size (big-endian u64 each),
//	                        "c": {chunk start offset (big-endian u64) → bytes},
//	                        "r": offsets reserved for live output (big-endian u64)}
//	processes  worker id → JSON {"pid","start","marker","boot"} (older files:
//	           pgid, big-endian u64)
//	proctrees  worker id → JSON {"pid","start","tree":[{"pid","start"}]}: the
//	           descendants of the recorded process (created on first use;
//	           proctrees.go)
//	runs       run id → nil (created on first use)
//	queues     session id → JSON [QueueItem] (created on first use; queue.go)
//	comments   session id → the caller's JSON of its review comments
//	           (created on first use; comments.go)
//	attention  "marks" → the caller's JSON of the attention list's marks
//	           (created on first use; attention.go)
package persist

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Errors callers branch on with errors.Is.
var (
	// ErrLocked means another process holds the database file lock: another
	// agentdesk is running on the same data dir.
	ErrLocked = errors.New("database is locked: another agentdesk is running on this data dir")
	// ErrNotFound means the session, worker or message uuid does not exist.
	ErrNotFound = errors.New("not found")
	// ErrClosed means the store is closed.
	ErrClosed = errors.New("store closed")
	// ErrInvalid means an argument is unusable: an empty id or uuid, or a
	// negative offset.
	ErrInvalid = errors.New("invalid argument")
	// ErrSeq means appended messages are not numbered LastSeq+1,
	// LastSeq+2, …: a message log has no gaps.
	ErrSeq = errors.New("message sequence not increasing")
	// ErrDuplicate means an appended message's uuid is already in the log.
	ErrDuplicate = errors.New("duplicate message uuid")
	// ErrOffset means appended output does not start at the current end.
	ErrOffset = errors.New("output offset is not the current end")
)

// DefaultOutputCap is the PTY output kept per worker when Options.OutputCap is 0.
const DefaultOutputCap = 8 << 20

// DefaultTimeout is how long Open waits for the file lock when Options.Timeout is 0.
const DefaultTimeout = time.Second

// queueLen bounds the write queue: a producer blocks (back-pressure) once
// this many operations wait for the writer.
const queueLen = 1024

// Options configures Open. A nil *Options means all defaults.
type Options struct {
	// Timeout is how long Open waits for the file lock before failing with
	// ErrLocked. Default DefaultTimeout (1s).
	Timeout time.Duration
	// OutputCap is how many PTY output bytes are kept per worker. Default
	// DefaultOutputCap (8 MiB).
	OutputCap int64
	// NoSync skips fsync on commit. THIS IS UNSAFE: a crash or power loss
	// can lose or corrupt committed data. For benchmarks only.
	NoSync bool
}

// Store is the agentdesk database. All methods are safe for concurrent use.
// Writes commit in the order they entered the write queue, so the writes of
// one goroutine commit in call order. Reads see committed data only.
type Store struct {
	db       *bolt.DB
	cap      int64 // output bytes kept per worker
	chunkMax int   // largest output chunk, so dropping one loses little

	w   *writer  // the write queue and its goroutine (writer.go)
	rec *Records // see Records
}

// Open opens (creating if needed, mode 0600) the database at path and starts
// its writer goroutine. It fails with an error wrapping ErrLocked when
// another process holds the file for longer than opts.Timeout.
func Open(path string, opts *Options) (*Store, error) {
	o := withDefaults(opts)
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:      o.Timeout,
		NoSync:       o.NoSync,
		FreelistType: bolt.FreelistMapType,
	})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("open %s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := db.Update(createTopBuckets); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("init %s: %w", path, err)
	}
	s := &Store{
		db:       db,
		cap:      o.OutputCap,
		chunkMax: chunkMaxFor(o.OutputCap),
	}
	s.w = &writer{db: db, s: s, ops: make(chan *op, queueLen)}
	s.rec = &Records{w: s.w}
	s.w.wg.Go(s.w.run)
	return s, nil
}

func withDefaults(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.OutputCap <= 0 {
		o.OutputCap = DefaultOutputCap
	}
	return o
}

func createTopBuckets(tx *bolt.Tx) error {
	for _, name := range [][]byte{bSessions, bWorkers, bMessages, bOutput, bProcesses} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// Close commits everything already queued, stops the writer and closes the
// database. Later calls (and every other method afterwards) return ErrClosed.
func (s *Store) Close() error {
	if !s.w.close() {
		return ErrClosed
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close db: %w", err)
	}
	return nil
}

// Barrier completes (one value, nil or the commit error) once everything
// queued before it is committed.
func (s *Store) Barrier() <-chan error {
	return s.w.enqueue(&op{apply: func(*wtx) error { return nil }})
}

// done returns a channel already holding err, for results known before
// anything is queued.
func done(err error) <-chan error {
	c := make(chan error, 1)
	c <- err
	return c
}
