package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// Large messages. bbolt keeps a value inline in its leaf, and never splits
// a leaf of four keys or fewer, so every append to a log whose last
// messages are tool results of 30 MB rewrote them all (the rightmost leaf)
// into a fresh buffer of that size, and copied them again when the file
// grew. A message over chunkSize is stored as its uuid alone under "s",
// its data cut into chunkSize pieces under "b" (seq, chunk number → bytes),
// appended in key order, so a commit writes each byte once.

// kBlob is the bucket of a worker's message bucket holding large data.
var kBlob = []byte("b")

// chunkSize is the piece of a large message's data stored per key.
const chunkSize = 256 << 10

// splitData returns data's chunks (sub-slices: nothing is copied) when it
// is stored in pieces, nil when it is stored inline.
func splitData(data []byte) [][]byte {
	if len(data) <= chunkSize {
		return nil
	}
	parts := make([][]byte, 0, (len(data)+chunkSize-1)/chunkSize)
	for len(data) > 0 {
		n := min(len(data), chunkSize)
		parts = append(parts, data[:n])
		data = data[n:]
	}
	return parts
}

// chunkKey is seq (8 bytes) then the chunk number (4 bytes), big-endian.
func chunkKey(seq uint64, i int) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 12), seq)
	return binary.BigEndian.AppendUint32(k, uint32(i))
}

// putChunks stores the pieces of a large message.
func putChunks(wb *bolt.Bucket, seq uint64, parts [][]byte) error {
	if len(parts) == 0 {
		return nil
	}
	b, err := wb.CreateBucketIfNotExists(kBlob)
	if err != nil {
		return fmt.Errorf("create blob bucket: %w", err)
	}
	b.FillPercent = logFill
	for i, p := range parts {
		if err := b.Put(chunkKey(seq, i), p); err != nil {
			return fmt.Errorf("put chunk %d of seq %d: %w", i, seq, err)
		}
	}
	return nil
}

// readBlob returns the data of seq stored in pieces (nil when it has
// none), copied out of the transaction in one allocation.
func readBlob(wb *bolt.Bucket, seq uint64) []byte {
	b := wb.Bucket(kBlob)
	if b == nil {
		return nil
	}
	prefix := u64(seq)
	n := 0
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		n += len(v)
	}
	if n == 0 {
		return nil
	}
	out := make([]byte, 0, n)
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		out = append(out, v...)
		dropPages(v)
	}
	return out
}

// MessagesPage is MessagesAfter that also stops once the messages it
// returns hold maxBytes of data (maxBytes <= 0: no bound); it returns at
// least one message when any follows afterSeq. Readers that page through a
// log of large messages hold one page in memory, not limit of them.
func (s *Store) MessagesPage(workerID string, afterSeq uint64, limit, maxBytes int) ([]Message, error) {
	if limit <= 0 {
		limit = math.MaxInt
	}
	if maxBytes <= 0 {
		maxBytes = math.MaxInt
	}
	var out []Message
	err := s.w.view(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bMessages).Bucket([]byte(workerID))
		if wb == nil || afterSeq == math.MaxUint64 {
			return nil
		}
		size := 0
		c := wb.Bucket(kSeq).Cursor()
		for k, v := c.Seek(u64(afterSeq + 1)); k != nil && len(out) < limit && size < maxBytes; k, v = c.Next() {
			m, err := decodeMessage(k, v)
			if err != nil {
				return err
			}
			if len(m.Data) == 0 {
				m.Data = readBlob(wb, m.Seq)
			}
			out = append(out, m)
			size += len(m.Data)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("messages of %s after %d: %w", workerID, afterSeq, err)
	}
	return out, nil
}
