package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// replayPage is how many stored messages a replay reads per transaction,
// and replayPageBytes how much data: a page of 30 MB tool results holds one.
const (
	replayPage      = 500
	replayPageBytes = 4 << 20
)

// tabQueue is how many frames may wait for one tab before it is kicked.
// The hub's byte bound (hub.MaxQueueBytes, 8 MiB) is what should kick a
// tab that stopped reading; a count of 4,096 frames kicked tabs that read
// as fast as the others but were delayed by a burst: at 20,000 small
// messages a second it is 200 ms behind. 65,536 frames of a few hundred
// bytes stay under the byte bound, and their slice of frame headers costs
// at most 2 MiB.
const tabQueue = 1 << 16

// messagesPageBytes bounds the data of one messages answer: it holds fewer
// than limit messages (with hasMore) rather than hundreds of MB.
const messagesPageBytes = 8 << 20

// attach is Runtime.Attach: it subscribes to the hub and snapshots the
// running turn, the pending permission requests and the activity in one
// step under pubMu, so the replay (stored messages up to the
// subscription's cursor, then history-end, then the snapshot) and the live
// frames meet without loss or duplicates.
func (j *journal) attach(ctx context.Context, after string) (*hub.Stream, error) {
	afterSeq, reset, err := j.seqOf(after)
	if err != nil {
		return nil, err
	}
	j.pubMu.Lock()
	sub, last := j.hub.Subscribe(tabQueue)
	tail := make([][]byte, 0, len(j.turn.frames)+len(j.pending)+2)
	tail = append(tail, j.turn.frames...)
	for _, p := range j.pending {
		tail = append(tail, p.frame)
	}
	tail = append(tail, wire.Activity(string(j.activity)))
	if j.stage != nil {
		tail = append(tail, j.stage)
	}
	if j.queued != nil {
		tail = append(tail, j.queued)
	}
	bulk := j.bulk
	j.pubMu.Unlock()

	lastUUID := ""
	if afterSeq > 0 {
		lastUUID = after
	}
	replay := func(yield func(hub.Frame) error) error {
		if reset {
			if err := yield(hub.Frame{Data: wire.Reset()}); err != nil {
				return err
			}
		}
		lu, err := j.replayGap(ctx, afterSeq, last, lastUUID, bulk, yield)
		if err != nil {
			return err
		}
		if err := yield(hub.Frame{Data: wire.HistoryEndUUID(lu)}); err != nil {
			return err
		}
		for _, f := range tail {
			if err := yield(hub.Frame{Data: f}); err != nil {
				return err
			}
		}
		return nil
	}
	return &hub.Stream{Replay: replay, Sub: sub, Expand: j.expander(ctx)}, nil
}

// seqOf resolves a cursor uuid. An unknown one means "from the start, after
// a reset".
func (j *journal) seqOf(after string) (seq uint64, reset bool, err error) {
	if after == "" {
		return 0, false, nil
	}
	seq, err = j.store.SeqOf(j.wid, after)
	if errors.Is(err, persist.ErrNotFound) {
		return 0, true, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("attach sdk worker: %w", err)
	}
	return seq, false, nil
}

// replayGap yields the stored frames with seq in (from, to] as
// replayStored does, except that a long part of them that an import
// published as notices (bulk) comes as one history-appended notice: the
// tab reads them over REST, as it would have after the live notices.
func (j *journal) replayGap(ctx context.Context, from, to uint64, lastUUID string, bulk bulkRun, yield func(hub.Frame) error) (string, error) {
	lo, ok := bulk.gap(from, to)
	if !ok {
		return j.replayStored(ctx, from, to, lastUUID, yield)
	}
	lu, err := j.replayStored(ctx, from, lo, lastUUID, yield)
	if err != nil {
		return "", err
	}
	if err := yield(hub.Frame{Data: wire.HistoryAppended(int(bulk.last-lo), bulk.lastUUID)}); err != nil {
		return "", err
	}
	if lu, err = j.replayStored(ctx, bulk.last, to, bulk.lastUUID, yield); err != nil {
		return "", err
	}
	return lu, nil
}

// replayStored yields the stored frames with seq in (from, to], a page per
// read transaction, and returns the uuid of the last one (lastUUID when
// there is none).
func (j *journal) replayStored(ctx context.Context, from, to uint64, lastUUID string, yield func(hub.Frame) error) (string, error) {
	for from < to {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		msgs, err := j.store.MessagesPage(j.wid, from, int(min(to-from, replayPage)), replayPageBytes)
		if err != nil {
			return "", fmt.Errorf("replay sdk messages: %w", err)
		}
		if len(msgs) == 0 {
			break
		}
		for _, m := range msgs {
			if m.Seq > to {
				return lastUUID, nil
			}
			if err := yield(hub.Frame{Data: m.Data}); err != nil {
				return "", err
			}
			from, lastUUID = m.Seq, m.UUID
		}
	}
	return lastUUID, nil
}

// messages is Runtime.Messages. Only published messages are returned, so
// every uuid a caller gets is a valid attach cursor.
func (j *journal) messages(after string, limit int) ([]json.RawMessage, bool, error) {
	if limit <= 0 {
		limit = wire.PageDefault
	}
	limit = min(limit, wire.PageMax)
	var afterSeq uint64
	if after != "" {
		seq, err := j.store.SeqOf(j.wid, after)
		if errors.Is(err, persist.ErrNotFound) {
			return nil, false, fmt.Errorf("message %q: %w", after, worker.ErrNotFound)
		}
		if err != nil {
			return nil, false, fmt.Errorf("list sdk messages: %w", err)
		}
		afterSeq = seq
	}
	published := j.published()
	msgs, err := j.store.MessagesPage(j.wid, afterSeq, limit, messagesPageBytes)
	if err != nil {
		return nil, false, fmt.Errorf("list sdk messages: %w", err)
	}
	out := make([]json.RawMessage, 0, len(msgs))
	last := afterSeq
	for i := range msgs {
		m := &msgs[i]
		if m.Seq > published {
			break
		}
		el, err := restElement(m.Data)
		if err != nil {
			return nil, false, fmt.Errorf("list sdk messages: %w", err)
		}
		m.Data = nil // el holds it: one copy of a large page at a time
		out = append(out, el)
		last = m.Seq
	}
	// Every message up to published is stored, so more follow exactly when
	// the page ended before it.
	return out, last < published && len(out) > 0, nil
}

// messagesBefore is Runtime.MessagesBefore: the newest limit published
// messages older than the one whose uuid is before ("" means the end of
// the log) and newer than the one whose uuid is after ("" means the start),
// oldest first, and whether older ones remain in that range.
func (j *journal) messagesBefore(before, after string, limit int) ([]json.RawMessage, bool, error) {
	if limit <= 0 {
		limit = wire.PageDefault
	}
	limit = min(limit, wire.PageMax)
	published := j.published()
	beforeSeq, err := j.seqOfPage(before, published+1)
	if err != nil {
		return nil, false, err
	}
	afterSeq, err := j.seqOfPage(after, 0)
	if err != nil {
		return nil, false, err
	}
	beforeSeq = min(beforeSeq, published+1)
	if beforeSeq <= afterSeq+1 {
		return []json.RawMessage{}, false, nil
	}
	// One more than asked tells whether older ones remain.
	msgs, err := j.store.MessagesBeforePage(j.wid, beforeSeq, afterSeq, limit+1, messagesPageBytes)
	if err != nil {
		return nil, false, fmt.Errorf("list sdk messages: %w", err)
	}
	more := len(msgs) > limit
	if more {
		msgs = msgs[:limit]
	} else if n := len(msgs); n > 0 && n < limit+1 {
		// The byte bound may have cut the page: older ones remain when
		// the oldest read is not the first of the range.
		older, err := j.store.MessagesBeforePage(j.wid, msgs[n-1].Seq, afterSeq, 1, 0)
		if err != nil {
			return nil, false, fmt.Errorf("list sdk messages: %w", err)
		}
		more = len(older) > 0
	}
	out := make([]json.RawMessage, len(msgs))
	for i := range msgs {
		m := &msgs[len(msgs)-1-i]
		el, err := restElement(m.Data)
		if err != nil {
			return nil, false, fmt.Errorf("list sdk messages: %w", err)
		}
		m.Data = nil
		out[i] = el
	}
	return out, more, nil
}

// seqOfPage resolves a uuid of the REST pages to its seq; none ("" ) gives
// def, an unknown one an error wrapping worker.ErrNotFound.
func (j *journal) seqOfPage(uuid string, def uint64) (uint64, error) {
	if uuid == "" {
		return def, nil
	}
	seq, err := j.store.SeqOf(j.wid, uuid)
	if errors.Is(err, persist.ErrNotFound) {
		return 0, fmt.Errorf("message %q: %w", uuid, worker.ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("list sdk messages: %w", err)
	}
	return seq, nil
}

// noticePrefix starts every history-appended notice (wire.HistoryAppended
// marshals its type first): live frames are told apart without parsing.
var noticePrefix = []byte(`{"type":"` + wire.TypeHistoryAppended + `"`)

// expander is the Stream.Expand of an sdk socket: a history-appended
// notice stands for the run of stored messages that ends at its last
// uuid (an import's batch, stored with consecutive seqs), and a client
// that did not ask for notices gets those messages instead, read from
// the store, as API.md's sdk-message frames. The socket's order and the
// exactly-once guarantee hold: the notice was published after its
// messages were committed, in their place among the live frames.
func (j *journal) expander(ctx context.Context) func(hub.Frame, func(hub.Frame) error) (bool, error) {
	return func(f hub.Frame, yield func(hub.Frame) error) (bool, error) {
		if f.Binary || !bytes.HasPrefix(f.Data, noticePrefix) {
			return false, nil
		}
		var n struct {
			Count int    `json:"count"`
			Last  string `json:"last"`
		}
		if err := json.Unmarshal(f.Data, &n); err != nil {
			return false, fmt.Errorf("read a history-appended notice: %w", err)
		}
		to, err := j.store.SeqOf(j.wid, n.Last)
		if err != nil {
			return false, fmt.Errorf("expand a history-appended notice: %w", err)
		}
		from := to - min(to, uint64(n.Count))
		_, err = j.replayStored(ctx, from, to, n.Last, yield)
		return true, err
	}
}
