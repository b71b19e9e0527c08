package search

import (
	"fmt"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// pageSize is how many messages one index batch takes.
const pageSize = 1000

// maxPages bounds one catch-up of a worker, so that a worker with a long
// backlog does not hold the others back: it is woken again to go on.
const maxPages = 20

// catchUp indexes the committed messages of wid after its last indexed seq.
func (x *Indexer) catchUp(wid string) error {
	sid := x.known[wid]
	after, err := x.indexedSeq(wid)
	if err != nil {
		return err
	}
	for range maxPages {
		if x.stopped() {
			return nil
		}
		msgs, err := x.store.MessagesAfter(wid, after, pageSize)
		if err != nil {
			return fmt.Errorf("read messages of %s: %w", wid, err)
		}
		if len(msgs) == 0 {
			return nil
		}
		b := x.idx.NewBatch()
		now := time.Now().UTC()
		for _, m := range msgs {
			if err := indexMessage(b, sid, wid, m.Seq, m.Data, now); err != nil {
				return err
			}
		}
		after = msgs[len(msgs)-1].Seq
		b.SetInternal([]byte(keySeqPfx+wid), strconv.AppendUint(nil, after, 10))
		x.cat0.Workers[wid] = sid
		if err := x.write(b); err != nil {
			return err
		}
		if len(msgs) < pageSize {
			return nil
		}
	}
	x.Wake(wid) // more to do: after the other workers
	return nil
}

func indexMessage(b *bleve.Batch, sid, wid string, seq uint64, data []byte, now time.Time) error {
	e, ok := extract(data)
	if !ok {
		return nil
	}
	if e.at.IsZero() {
		e.at = now // the CLI's lines carry no time; they were committed just now
	}
	id := wid + "/" + strconv.FormatUint(seq, 10)
	err := b.Index(id, map[string]any{
		fText: e.text, fSID: sid, fWID: wid, fUUID: e.uuid, fRole: e.role,
		fAt: e.at.UTC().Format(time.RFC3339Nano),
	})
	if err != nil {
		return fmt.Errorf("index message %s: %w", id, err)
	}
	return nil
}

func (x *Indexer) indexedSeq(wid string) (uint64, error) {
	v, err := x.idx.GetInternal([]byte(keySeqPfx + wid))
	if err != nil {
		return 0, fmt.Errorf("read indexed seq of %s: %w", wid, err)
	}
	if len(v) == 0 {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, nil // unreadable mark: index the log again from the start
	}
	return n, nil
}
