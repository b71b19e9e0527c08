package search

import (
	"fmt"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/agentdesk/agentdesk/persist"
)

// pageSize is how many messages are read from the store at a time.
var pageSize = 1000 // a variable only for tests, as batchDocs

// batchDocs is about how many messages one index batch takes: the pages
// of several workers go into one batch, because each batch becomes a
// segment of the index that is merged later, so a few large batches cost
// much less than many small ones (during a burst, each worker has only a
// few new messages at every pass).
var batchDocs = 5000

// maxPages bounds one catch-up of a worker, so that a worker with a long
// backlog does not hold the others back: it is woken again to go on.
const maxPages = 20

// catchUp adds the committed messages of wid after its last indexed seq to
// the open batch, writing it whenever it is full.
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
		x.noteBacklog(wid, x.passGen)
		if err := x.add(sid, wid, msgs); err != nil {
			return err
		}
		after = msgs[len(msgs)-1].Seq
		if x.batchN >= batchDocs {
			if err := x.flush(); err != nil {
				return err
			}
			if x.yielding() {
				x.again(wid) // the rest of its backlog after the flood
				return nil
			}
		}
		if len(msgs) < pageSize {
			return nil
		}
	}
	x.again(wid) // more to do: after the other workers
	return nil
}

// add puts msgs of wid into the open batch, with wid's seq mark and the
// next ordinal, so that they are written together.
func (x *Indexer) add(sid, wid string, msgs []persist.Message) error {
	if x.batch == nil {
		x.batch = x.idx.NewBatch()
	}
	now := time.Now().UTC()
	for _, m := range msgs {
		ok, err := indexMessage(x.batch, x.fields, sid, wid, m.Seq, m.Data, now, x.batchOrd)
		if err != nil {
			return err
		}
		if ok {
			x.batchOrd++
		}
	}
	x.batchN += len(msgs)
	x.passN += len(msgs)
	x.batch.SetInternal([]byte(keySeqPfx+wid), strconv.AppendUint(nil, msgs[len(msgs)-1].Seq, 10))
	x.batch.SetInternal([]byte(keyOrd), strconv.AppendUint(nil, x.batchOrd, 10))
	x.cat0.Workers[wid] = sid
	return nil
}

// indexMessage adds the message's document to b, in the tier of ord;
// false when the message has nothing to index.
func indexMessage(b *bleve.Batch, d *docFields, sid, wid string, seq uint64, data []byte, now time.Time, ord uint64) (bool, error) {
	e, ok := extract(data)
	if !ok {
		return false, nil
	}
	if e.at.IsZero() {
		e.at = now // the CLI's lines carry no time; they were committed just now
	}
	id, ref := messageDocID(sid, wid, seq, e.uuid), messageID(wid, seq)
	doc := d.message(id, [nFields]string{e.text, sid, wid, tierName(ord), e.at.UTC().Format(time.RFC3339Nano), ref})
	if err := b.IndexAdvanced(doc); err != nil {
		return false, fmt.Errorf("index message %s: %w", id, err)
	}
	return true, nil
}

// messageID names a stored copy of a message: its worker and seq.
func messageID(wid string, seq uint64) string { return wid + "/" + strconv.FormatUint(seq, 10) }

// messageDocID is a message's document id: the message's uuid within its
// session, so that the copies of one message in the logs of the workers
// that carried the conversation (each switch back to the chat imports the
// history again, under the same uuids) are one document, written by
// whichever copy was indexed last (its ref). A message without a uuid has
// a document per copy.
func messageDocID(sid, wid string, seq uint64, uuid string) string {
	if uuid == "" {
		return messageID(wid, seq)
	}
	return "u/" + sid + "/" + uuid
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
