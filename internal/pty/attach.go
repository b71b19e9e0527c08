package pty

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// replayChunk is the most output bytes in one replayed binary frame.
const replayChunk = 64 << 10

// Attach is AttachContext without a deadline for the storage barrier.
func (l *Log) Attach(cursor string) (*hub.Stream, error) {
	return l.AttachContext(context.Background(), cursor)
}

// AttachContext opens a stream from cursor, the raw "offset" query value:
// "" means the oldest byte kept, an offset past the end means the end. A
// cursor that is not a non-negative integer is an error wrapping
// wire.ErrInvalid.
//
// The replay is, in order: every stored byte from the cursor up to the end
// E seen when subscribing, as binary frames, with a `truncated` frame
// before each run of bytes that is not stored (dropped by the size cap,
// never stored because of a crash or a failed commit) carrying the offset
// where output resumes; then `history-end` at E and the tail frames. The
// Sub carries everything after E. Attach waits for the store to commit
// (or fail) every byte before E, which ctx bounds.
func (l *Log) AttachContext(ctx context.Context, cursor string) (*hub.Stream, error) {
	from, err := parseCursor(cursor)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	sub, c := l.hub.Subscribe(0)
	tail := slices.Clone(l.tail)
	l.submitLocked(false) // the barrier below must cover every byte before E
	l.mu.Unlock()
	// A failed commit does not refuse the tab: what it lost is a hole the
	// replay steps over, and the runtime sends the error frame.
	if err := l.barrier(ctx); err != nil && ctx.Err() != nil {
		sub.Close()
		return nil, fmt.Errorf("attach output: %w", err)
	}
	r := &replay{l: l, from: from, end: int64(c), tail: tail}
	return &hub.Stream{Replay: r.run, Sub: sub, Coalesce: Coalesce}, nil
}

// parseCursor returns the offset asked for, -1 for "" (oldest kept).
func parseCursor(cursor string) (int64, error) {
	if cursor == "" {
		return -1, nil
	}
	n, err := strconv.ParseInt(cursor, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: offset %q is not a non-negative integer", wire.ErrInvalid, cursor)
	}
	return n, nil
}

// barrier waits until everything handed to the store so far is committed.
func (l *Log) barrier(ctx context.Context) error {
	select {
	case err := <-l.store.Barrier():
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// replay is one stream's stored part: [from, end) then history-end and tail.
type replay struct {
	l    *Log
	from int64 // -1: oldest kept
	end  int64
	tail []hub.Frame
}

func (r *replay) run(yield func(hub.Frame) error) error {
	if err := r.output(yield, min(max(r.from, 0), r.end)); err != nil {
		return err
	}
	if err := yield(hub.Frame{Data: wire.HistoryEndOffset(r.end)}); err != nil {
		return err
	}
	for _, f := range r.tail {
		if err := yield(f); err != nil {
			return err
		}
	}
	return nil
}

// output yields every stored byte of [pos, r.end) as binary frames. Where
// the store has none at pos (older bytes dropped by the cap, a hole left by
// a crash or a failed commit), it first sends `truncated` with the offset
// where output resumes: the next stored byte, or r.end when none is left
// before it (the live frames carry on from there).
func (r *replay) output(yield func(hub.Frame) error, pos int64) error {
	for pos < r.end {
		data, at, err := r.l.store.ReadOutput(r.l.id, pos, int(min(replayChunk, r.end-pos)))
		if err != nil {
			return fmt.Errorf("replay output: %w", err)
		}
		if len(data) == 0 || at >= r.end {
			data, at = nil, r.end
		}
		if at > pos {
			if err := yield(hub.Frame{Data: wire.Truncated(at)}); err != nil {
				return err
			}
			pos = at
		}
		n := min(int64(len(data)), r.end-pos)
		if n == 0 {
			continue
		}
		if err := yield(binaryFrame(pos, data[:n])); err != nil {
			return err
		}
		pos += n
	}
	return nil
}

// binaryFrame builds an output frame: 8-byte big-endian offset, then data.
func binaryFrame(off int64, data []byte) hub.Frame {
	b := make([]byte, headerLen+len(data))
	binary.BigEndian.PutUint64(b, uint64(off))
	copy(b[headerLen:], data)
	return hub.Frame{Binary: true, Data: b}
}
