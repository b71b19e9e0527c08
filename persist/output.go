package persist

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Keys inside a worker's bucket in "output".
var (
	kMeta     = []byte("m") // start|end|size, big-endian u64 each (see outputMeta)
	kChunks   = []byte("c") // bucket: chunk start offset → bytes, or → bucket {kData: bytes}
	kReserved = []byte("r") // offsets handed out live, maybe not yet stored
	kData     = []byte("d") // the bytes of a chunk stored in a bucket of its own
)

// A chunk of at least ownBucketMin bytes is stored in a bucket of its own
// (offset → bucket holding it under kData), not as a value of the chunks
// bucket. bbolt keeps values inline in their leaf and never splits a leaf
// of four keys or fewer, so a value chunk is copied and written again by
// every commit that touches its leaf: appending 512 KiB of output wrote
// the leaf's earlier chunks again, and dropping the oldest chunk rewrote
// the chunks beside it (3-3.5 bytes written per byte of output). A chunk's
// own bucket is its own pages: the chunks bucket then holds small headers,
// a commit writes each output byte once, and dropping a chunk frees its
// pages without reading them. Smaller chunks (a trickle of keystroke
// echoes, merged while under mergeBelow) stay values. Both kinds are read.
const ownBucketMin = 16 << 10

// chunkData returns the bytes of the chunk at key k whose value in the
// chunks bucket is v (nil for a chunk in a bucket of its own).
func chunkData(chunks *bolt.Bucket, k, v []byte) []byte {
	if v != nil {
		return v
	}
	if b := chunks.Bucket(k); b != nil {
		return b.Get(kData)
	}
	return nil
}

// putChunk stores one chunk at key k.
func putChunk(chunks *bolt.Bucket, k, data []byte) error {
	if len(data) < ownBucketMin {
		return chunks.Put(k, data)
	}
	b, err := chunks.CreateBucket(k)
	if err != nil {
		return err
	}
	return b.Put(kData, data)
}

// deleteChunk drops the chunk at key k whose value is v.
func deleteChunk(chunks *bolt.Bucket, k, v []byte) error {
	if v == nil {
		return chunks.DeleteBucket(k)
	}
	return chunks.Delete(k)
}

// The stored output of a worker is a set of chunks that need not be
// contiguous: a crash leaves a hole of offsets that were reserved (and
// maybe shown live) but never stored, and so does a failed commit. start is
// the offset of the oldest stored byte, end the offset just past the
// newest, size the number of bytes stored. The cap applies to size, not to
// end-start: holes cost no space, and counting them would let a few crashes
// push every stored byte out.

// Chunk sizes. Chunks are at most maxChunk (or an eighth of the cap, when
// that is smaller) so that dropping the oldest one loses little. A stored
// tail chunk smaller than mergeBelow is extended by the next commit, so
// keystroke echoes committed one by one still share a chunk.
const (
	maxChunk   = 128 << 10
	mergeBelow = 4 << 10
)

func chunkMaxFor(cap int64) int {
	return int(max(1, min(maxChunk, cap/8)))
}

// pendingOutput is the output appended to one worker during one pass: the
// stored range when the pass first touched the worker, plus the new bytes.
type pendingOutput struct {
	start, end int64    // stored range
	size       int64    // stored bytes, holes excluded
	reserved   int64    // the stored reservation (see ReserveOutput)
	parts      [][]byte // appended data in order; each is the store's own copy
	n          int64    // total length of parts
}

// AppendOutput queues data, which starts at absolute offset off, for the
// output of workerID. off must equal the current end (queued appends
// included), or, for the first append of a commit, lie beyond it but
// within the reservation (ReserveOutput): a writer that resumed at
// OutputNext after a crash, or whose earlier append failed. The bytes in
// between were never stored: they are a hole, which reads skip and which
// takes no room. Any other off is ErrOffset. The store owns data from the
// call on: the caller must not modify it (output arrives by the MiB; a copy
// here would double the bytes the garbage collector sees). Appends to one
// worker inside one commit are merged into one chunk. When the stored
// bytes (holes not counted) exceed the cap, the oldest chunks are dropped:
// the start moves forward and offsets are never reused. The returned
// channel receives exactly one value once committed or rejected.
func (s *Store) AppendOutput(workerID string, off int64, data []byte) <-chan error {
	if workerID == "" || off < 0 {
		return done(fmt.Errorf("append output of %q at %d: %w", workerID, off, ErrInvalid))
	}
	return s.w.enqueue(&op{size: len(data), apply: func(w *wtx) error {
		if err := w.appendOutput(workerID, off, data); err != nil {
			return fmt.Errorf("append output of %s: %w", workerID, err)
		}
		return nil
	}})
}

// appendOutput only records data in the pass; flushOutput writes it.
func (w *wtx) appendOutput(workerID string, off int64, data []byte) error {
	p := w.pending(workerID)
	if p.n == 0 && off > p.end && off <= p.reserved {
		p.end = off // a gap: see AppendOutput
	}
	if off != p.end+p.n {
		return fmt.Errorf("offset %d, end %d: %w", off, p.end+p.n, ErrOffset)
	}
	if len(data) > 0 {
		p.parts = append(p.parts, data)
		p.n += int64(len(data))
	}
	return nil
}

func (w *wtx) pending(workerID string) *pendingOutput {
	if p, ok := w.out[workerID]; ok {
		return p
	}
	p := &pendingOutput{}
	if wb := w.tx.Bucket(bOutput).Bucket([]byte(workerID)); wb != nil {
		p.start, p.end = readMeta(wb)
		p.size = readSize(wb)
		if r := wb.Get(kReserved); len(r) == 8 {
			p.reserved = int64(getU64(r))
		}
	}
	if w.out == nil {
		w.out = make(map[string]*pendingOutput)
	}
	w.out[workerID] = p
	return p
}

func readMeta(wb *bolt.Bucket) (start, end int64) {
	m := wb.Get(kMeta)
	if len(m) < 16 {
		return 0, 0
	}
	return int64(getU64(m[:8])), int64(getU64(m[8:16]))
}

// readSize returns the stored bytes. A meta written before the size was
// recorded (16 bytes) has it counted from the chunks, once: the next
// write records it.
func readSize(wb *bolt.Bucket) int64 {
	if m := wb.Get(kMeta); len(m) == 24 {
		return int64(getU64(m[16:]))
	}
	var size int64
	if chunks := wb.Bucket(kChunks); chunks != nil {
		_ = chunks.ForEach(func(k, v []byte) error {
			size += int64(len(chunkData(chunks, k, v)))
			return nil
		})
	}
	return size
}

func putMeta(wb *bolt.Bucket, start, end, size int64) error {
	m := make([]byte, 0, 24)
	m = append(append(append(m, u64(uint64(start))...), u64(uint64(end))...), u64(uint64(size))...)
	return wb.Put(kMeta, m)
}

// flushOutput writes the output pending in this pass, one worker at a time.
func (w *wtx) flushOutput() error {
	for id, p := range w.out {
		if p.n == 0 {
			continue
		}
		if err := w.writeOutput([]byte(id), p); err != nil {
			return fmt.Errorf("write output of %s: %w", id, err)
		}
	}
	return nil
}

func (w *wtx) writeOutput(id []byte, p *pendingOutput) error {
	wb, err := w.tx.Bucket(bOutput).CreateBucketIfNotExists(id)
	if err != nil {
		return err
	}
	parts, n, size, end := p.parts, p.n, p.size, p.end+p.n
	if n >= w.s.cap {
		// The new data alone fills the cap: nothing stored survives.
		if wb.Bucket(kChunks) != nil {
			if err := wb.DeleteBucket(kChunks); err != nil {
				return err
			}
		}
		parts, n, size = lastBytes(parts, n, w.s.cap), w.s.cap, 0
	}
	chunks, err := wb.CreateBucketIfNotExists(kChunks)
	if err != nil {
		return err
	}
	chunks.FillPercent = logFill
	off := end - n
	for _, run := range joinSmall(parts) {
		if err := w.putChunks(chunks, off, run); err != nil {
			return err
		}
		off += int64(len(run))
	}
	if size, err = w.trim(chunks, size+n); err != nil {
		return err
	}
	start := end
	if k, _ := chunks.Cursor().First(); k != nil {
		start = int64(getU64(k)) // the oldest byte kept, never inside a hole
	}
	return putMeta(wb, start, end, size)
}

// lastBytes returns the last keep bytes of parts, which hold n in all.
func lastBytes(parts [][]byte, n, keep int64) [][]byte {
	for skip := n - keep; skip > 0; {
		if int64(len(parts[0])) <= skip {
			skip -= int64(len(parts[0]))
			parts = parts[1:]
			continue
		}
		parts = append([][]byte{parts[0][skip:]}, parts[1:]...)
		break
	}
	return parts
}

// joinSmall returns parts with each run of parts under ownBucketMin joined
// into one: large parts (a streaming Log's appends) are stored from their
// own buffers, without a copy, and a trickle still shares a chunk.
func joinSmall(parts [][]byte) [][]byte {
	var out [][]byte
	var run [][]byte
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			out = append(out, run[0])
		default:
			out = append(out, bytes.Join(run, nil))
		}
		run = run[:0]
	}
	for _, p := range parts {
		if len(p) >= ownBucketMin {
			flush()
			out = append(out, p)
			continue
		}
		run = append(run, p)
	}
	flush()
	return out
}

// putChunks stores data, which starts at offset off, first topping up a
// small tail chunk, then in chunks of at most chunkMax.
func (w *wtx) putChunks(chunks *bolt.Bucket, off int64, data []byte) error {
	if k, v := chunks.Cursor().Last(); k != nil && v != nil && len(v) < min(mergeBelow, w.s.chunkMax) && int64(getU64(k))+int64(len(v)) == off {
		n := min(w.s.chunkMax-len(v), len(data))
		merged := append(append(make([]byte, 0, len(v)+n), v...), data[:n]...)
		if err := chunks.Put(k, merged); err != nil {
			return err
		}
		off, data = off+int64(n), data[n:]
	}
	for len(data) > 0 {
		n := min(w.s.chunkMax, len(data))
		if err := putChunk(chunks, u64(uint64(off)), data[:n]); err != nil {
			return err
		}
		off, data = off+int64(n), data[n:]
	}
	return nil
}

// trim drops the oldest chunks while more than the cap is stored and
// returns the bytes still stored. Holes between chunks cost nothing.
func (w *wtx) trim(chunks *bolt.Bucket, size int64) (int64, error) {
	for size > w.s.cap {
		// Re-seek each time: a cursor is not reliable after deleting under it.
		k, v := chunks.Cursor().First()
		if k == nil {
			return 0, nil
		}
		size -= int64(len(chunkData(chunks, k, v)))
		if err := deleteChunk(chunks, k, v); err != nil {
			return 0, err
		}
	}
	return size, nil
}

// ReserveOutput records that offsets up to upTo may have been shown to
// clients before their bytes are stored. After a crash, OutputNext
// continues past them, so an offset a client saw is never reused. The
// returned channel reports the commit; a writer must not show offsets
// past the old reservation before it does. A writer that closes cleanly
// gives back what it did not use by reserving up to its end.
func (s *Store) ReserveOutput(workerID string, upTo int64) <-chan error {
	if workerID == "" || upTo < 0 {
		return done(fmt.Errorf("reserve output of %q to %d: %w", workerID, upTo, ErrInvalid))
	}
	return s.w.enqueue(&op{apply: func(w *wtx) error {
		wb, err := w.tx.Bucket(bOutput).CreateBucketIfNotExists([]byte(workerID))
		if err != nil {
			return fmt.Errorf("reserve output of %s: %w", workerID, err)
		}
		if p, ok := w.out[workerID]; ok {
			p.reserved = upTo
		}
		if err := wb.Put(kReserved, u64(uint64(upTo))); err != nil {
			return fmt.Errorf("reserve output of %s: %w", workerID, err)
		}
		return nil
	}})
}

// OutputNext returns the offset where new output of workerID must start:
// the stored end, or the reservation when a crash left it beyond the end.
func (s *Store) OutputNext(workerID string) (int64, error) {
	var next int64
	err := s.w.view(func(tx *bolt.Tx) error {
		if wb := tx.Bucket(bOutput).Bucket([]byte(workerID)); wb != nil {
			_, next = readMeta(wb)
			if r := wb.Get(kReserved); len(r) == 8 {
				next = max(next, int64(getU64(r)))
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("output next of %s: %w", workerID, err)
	}
	return next, nil
}
