package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Keys inside a worker's bucket in "messages".
var (
	kSeq   = []byte("s") // seq → uvarint(len uuid) uuid data
	kUUID  = []byte("u") // uuid → seq
	kCount = []byte("n") // number of messages
)

// logFill packs pages of append-only logs: keys only ever grow, so the
// default half-full split would waste half of every page.
const logFill = 0.9

// Message is one entry of a worker's message log.
type Message struct {
	Seq  uint64
	UUID string
	Data []byte
	// Blobs are files stored with the message, in its transaction, and
	// read back with Store.Blob (blobs.go); never returned with it.
	Blobs []Blob
}

// encMsg is a message encoded in the caller's goroutine, so the writer only
// does Puts. uuid aliases val. A large message's data is in chunks
// (bigmsg.go), which alias the caller's Data.
type encMsg struct {
	seq    uint64
	key    []byte // u64(seq)
	uuid   []byte
	val    []byte
	chunks [][]byte
	blobs  []Blob
}

// AppendMessages queues msgs for the log of workerID. The caller assigns
// Seq, continuing the log without gaps (LastSeq+1, LastSeq+2, … when the
// batch commits), and unique UUIDs; a batch that breaks this fails whole
// with ErrSeq, ErrDuplicate or ErrInvalid. So a batch numbered after one
// that failed fails too (ErrSeq) until the caller numbers again from the
// last committed seq: a failed write never leaves a hole. The
// returned channel receives exactly one value (nil or the error) once the
// messages are committed or rejected. It blocks only while the write queue
// is full. msgs may be reused as soon as it returns; the Data of a message
// over 256 KiB is stored without a copy and must not change until then.
func (s *Store) AppendMessages(workerID string, msgs []Message) <-chan error {
	recs, size, err := encodeMessages(workerID, msgs)
	if err != nil {
		return done(fmt.Errorf("append messages of %s: %w", workerID, err))
	}
	if len(recs) == 0 {
		return s.Barrier() // nothing to write, but keep the ErrClosed and ordering contract
	}
	return s.w.enqueue(&op{size: size, msgsOf: workerID, apply: func(w *wtx) error {
		if err := w.appendMessages([]byte(workerID), recs); err != nil {
			return fmt.Errorf("append messages of %s: %w", workerID, err)
		}
		return nil
	}})
}

// encodeMessages checks what needs no transaction and encodes msgs.
func encodeMessages(workerID string, msgs []Message) ([]encMsg, int, error) {
	if workerID == "" {
		return nil, 0, ErrInvalid
	}
	recs := make([]encMsg, len(msgs))
	keys := make([]byte, 8*len(msgs))
	size := 0
	for i, m := range msgs {
		if m.UUID == "" {
			return nil, 0, fmt.Errorf("message %d has no uuid: %w", m.Seq, ErrInvalid)
		}
		if m.Seq == 0 || (i > 0 && m.Seq != msgs[i-1].Seq+1) {
			return nil, 0, fmt.Errorf("seq %d: %w", m.Seq, ErrSeq)
		}
		for _, b := range m.Blobs {
			if b.ID == "" {
				return nil, 0, fmt.Errorf("attachment of message %d has no id: %w", m.Seq, ErrInvalid)
			}
		}
		chunks := splitData(m.Data)
		inline := m.Data
		if chunks != nil {
			inline = nil
		}
		val := binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(m.UUID)+len(inline)), uint64(len(m.UUID)))
		n := len(val)
		val = append(append(val, m.UUID...), inline...)
		key := binary.BigEndian.AppendUint64(keys[8*i:8*i], m.Seq)
		recs[i] = encMsg{seq: m.Seq, key: key, uuid: val[n : n+len(m.UUID)], val: val, chunks: chunks, blobs: m.Blobs}
		size += len(val) + len(m.Data) - len(inline)
		for _, b := range m.Blobs {
			size += len(b.Meta) + len(b.Data)
		}
	}
	if err := checkDistinct(msgs); err != nil {
		return nil, 0, err
	}
	return recs, size, nil
}

func checkDistinct(msgs []Message) error {
	if len(msgs) < 2 {
		return nil
	}
	seen := make(map[string]struct{}, len(msgs))
	for _, m := range msgs {
		if _, dup := seen[m.UUID]; dup {
			return fmt.Errorf("uuid %s twice: %w", m.UUID, ErrDuplicate)
		}
		seen[m.UUID] = struct{}{}
	}
	return nil
}

// appendMessages validates recs against the stored log before it writes
// anything, so a rejection leaves the transaction untouched.
func (w *wtx) appendMessages(workerID []byte, recs []encMsg) error {
	all := w.tx.Bucket(bMessages)
	wb := all.Bucket(workerID)
	var count uint64
	if wb != nil {
		if err := checkAppend(wb, recs); err != nil {
			return err
		}
		if err := checkBlobs(wb, recs); err != nil {
			return err
		}
		count = getU64(wb.Get(kCount))
	} else {
		if recs[0].seq != 1 {
			return fmt.Errorf("seq %d starts an empty log: %w", recs[0].seq, ErrSeq)
		}
		var err error
		if wb, err = createLog(all, workerID); err != nil {
			return err
		}
	}
	seqs, uuids := wb.Bucket(kSeq), wb.Bucket(kUUID)
	seqs.FillPercent = logFill
	for _, r := range recs {
		if err := seqs.Put(r.key, r.val); err != nil {
			return fmt.Errorf("put seq %d: %w", r.seq, err)
		}
		if err := uuids.Put(r.uuid, r.key); err != nil {
			return fmt.Errorf("put uuid of seq %d: %w", r.seq, err)
		}
		if err := putChunks(wb, r.seq, r.chunks); err != nil {
			return err
		}
		if err := putBlobs(wb, r.blobs); err != nil {
			return err
		}
	}
	return wb.Put(kCount, u64(count+uint64(len(recs))))
}

func checkAppend(wb *bolt.Bucket, recs []encMsg) error {
	if last, _ := wb.Bucket(kSeq).Cursor().Last(); getU64(last)+1 != recs[0].seq {
		return fmt.Errorf("seq %d after %d: %w", recs[0].seq, getU64(last), ErrSeq)
	}
	uuids := wb.Bucket(kUUID)
	for _, r := range recs {
		if uuids.Get(r.uuid) != nil {
			return fmt.Errorf("uuid %s: %w", r.uuid, ErrDuplicate)
		}
	}
	return nil
}

func createLog(all *bolt.Bucket, workerID []byte) (*bolt.Bucket, error) {
	wb, err := all.CreateBucket(workerID)
	if err != nil {
		return nil, fmt.Errorf("create message log: %w", err)
	}
	for _, k := range [][]byte{kSeq, kUUID} {
		if _, err := wb.CreateBucket(k); err != nil {
			return nil, fmt.Errorf("create message log: %w", err)
		}
	}
	return wb, nil
}

// LastSeq returns the highest committed seq of the worker's log, 0 when empty.
func (s *Store) LastSeq(workerID string) (uint64, error) {
	var seq uint64
	err := s.w.view(func(tx *bolt.Tx) error {
		if wb := tx.Bucket(bMessages).Bucket([]byte(workerID)); wb != nil {
			k, _ := wb.Bucket(kSeq).Cursor().Last()
			seq = getU64(k)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("last seq of %s: %w", workerID, err)
	}
	return seq, nil
}

// SeqOf returns the seq of the message with uuid, or ErrNotFound.
func (s *Store) SeqOf(workerID, uuid string) (uint64, error) {
	var seq uint64
	err := s.w.view(func(tx *bolt.Tx) error {
		wb := tx.Bucket(bMessages).Bucket([]byte(workerID))
		if wb == nil || uuid == "" {
			return ErrNotFound
		}
		v := wb.Bucket(kUUID).Get([]byte(uuid))
		if v == nil {
			return ErrNotFound
		}
		seq = getU64(v)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("seq of %s in %s: %w", uuid, workerID, err)
	}
	return seq, nil
}

// MessagesAfter returns the messages with Seq > afterSeq in ascending order,
// at most limit of them (limit <= 0: no limit). Data is copied out of the
// transaction. An unknown worker has an empty log.
func (s *Store) MessagesAfter(workerID string, afterSeq uint64, limit int) ([]Message, error) {
	return s.MessagesPage(workerID, afterSeq, limit, 0)
}

func decodeMessage(k, v []byte) (Message, error) {
	n, w := binary.Uvarint(v)
	if w <= 0 || uint64(len(v)-w) < n {
		return Message{}, fmt.Errorf("corrupt message at seq %d", getU64(k))
	}
	end := w + int(n)
	return Message{Seq: getU64(k), UUID: string(v[w:end]), Data: bytes.Clone(v[end:])}, nil
}

// MessageCount returns how many messages the worker's log holds.
func (s *Store) MessageCount(workerID string) (int, error) {
	var n uint64
	err := s.w.view(func(tx *bolt.Tx) error {
		if wb := tx.Bucket(bMessages).Bucket([]byte(workerID)); wb != nil {
			n = getU64(wb.Get(kCount))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count messages of %s: %w", workerID, err)
	}
	return int(n), nil
}
