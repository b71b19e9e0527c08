package persist

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// Top-level bucket names; see the package comment for the layout.
var (
	bSessions  = []byte("sessions")
	bWorkers   = []byte("workers")
	bMessages  = []byte("messages")
	bOutput    = []byte("output")
	bProcesses = []byte("processes")
)

// u64 encodes v big-endian, so byte order is numeric order.
func u64(v uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), v)
}

// getU64 decodes a big-endian key or value; anything but 8 bytes reads as 0.
func getU64(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// has reports whether b holds key k (a plain value or a nested bucket).
// Unlike Get it tells an empty value from a missing key.
func has(b *bolt.Bucket, k []byte) bool {
	got, _ := b.Cursor().Seek(k)
	return got != nil && bytes.Equal(got, k)
}

// records copies every key/value of b (which holds no nested buckets) out of
// the transaction, in key order.
func records(b *bolt.Bucket) []Record {
	var out []Record
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		out = append(out, Record{ID: string(k), Value: bytes.Clone(v)})
	}
	return out
}
