package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// replayPage is how many stored messages a replay reads per transaction,
// and replayPageBytes how much data: a page of 30 MB tool results holds one.
const (
	replayPage      = 500
	replayPageBytes = 4 << 20
)

// messagesPageBytes bounds the data of one Messages answer: it holds fewer
// than limit messages (with hasMore) rather than hundreds of MB.
const messagesPageBytes = 8 << 20

// Messages page sizes of API.md.
const (
	DefaultMessagesLimit = 500
	MaxMessagesLimit     = 5000
)

// Attach opens a stream after the message whose uuid is after ("" means
// from the start). It subscribes to the hub and snapshots the running
// turn, the pending permission requests and the activity in one step, so
// the replay (stored messages up to the subscription's cursor, then
// history-end, then the snapshot) and the live frames meet without loss or
// duplicates. An unknown after replays everything after a reset frame.
func (r *Runtime) Attach(ctx context.Context, after string) (*hub.Stream, error) {
	afterSeq, reset, err := r.seqOf(after)
	if err != nil {
		return nil, err
	}
	r.pubMu.Lock()
	sub, last := r.hub.Subscribe(0)
	tail := make([][]byte, 0, len(r.turn)+len(r.pending)+1)
	tail = append(tail, r.turn...)
	for _, p := range r.pending {
		tail = append(tail, p.frame)
	}
	tail = append(tail, activityFrame(r.activity))
	r.pubMu.Unlock()

	lastUUID := ""
	if afterSeq > 0 {
		lastUUID = after
	}
	replay := func(yield func(hub.Frame) error) error {
		if reset {
			if err := yield(hub.Frame{Data: resetFrame}); err != nil {
				return err
			}
		}
		lu, err := r.replayStored(ctx, afterSeq, last, lastUUID, yield)
		if err != nil {
			return err
		}
		if err := yield(hub.Frame{Data: historyEndFrame(lu)}); err != nil {
			return err
		}
		for _, f := range tail {
			if err := yield(hub.Frame{Data: f}); err != nil {
				return err
			}
		}
		return nil
	}
	return &hub.Stream{Replay: replay, Sub: sub}, nil
}

// seqOf resolves a cursor uuid. An unknown one means "from the start, after
// a reset".
func (r *Runtime) seqOf(after string) (seq uint64, reset bool, err error) {
	if after == "" {
		return 0, false, nil
	}
	seq, err = r.store.SeqOf(r.wid, after)
	if errors.Is(err, persist.ErrNotFound) {
		return 0, true, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("attach sdk worker: %w", err)
	}
	return seq, false, nil
}

// replayStored yields the stored frames with seq in (from, to], a page per
// read transaction, and returns the uuid of the last one (lastUUID when
// there is none).
func (r *Runtime) replayStored(ctx context.Context, from, to uint64, lastUUID string, yield func(hub.Frame) error) (string, error) {
	for from < to {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		msgs, err := r.store.MessagesPage(r.wid, from, int(min(to-from, replayPage)), replayPageBytes)
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

// Messages returns up to limit stored messages after the one whose uuid is
// after ("" means from the start), oldest first, each an sdk-message frame
// without "type", and whether more follow. limit <= 0 means
// DefaultMessagesLimit; it is capped at MaxMessagesLimit. An unknown after
// is an error wrapping worker.ErrNotFound. Only published messages are
// returned, so every uuid a caller gets is a valid Attach cursor.
func (r *Runtime) Messages(after string, limit int) ([]json.RawMessage, bool, error) {
	if limit <= 0 {
		limit = DefaultMessagesLimit
	}
	limit = min(limit, MaxMessagesLimit)
	var afterSeq uint64
	if after != "" {
		seq, err := r.store.SeqOf(r.wid, after)
		if errors.Is(err, persist.ErrNotFound) {
			return nil, false, fmt.Errorf("message %q: %w", after, worker.ErrNotFound)
		}
		if err != nil {
			return nil, false, fmt.Errorf("list sdk messages: %w", err)
		}
		afterSeq = seq
	}
	published := r.publishedSeq()
	msgs, err := r.store.MessagesPage(r.wid, afterSeq, limit, messagesPageBytes)
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

// clientFrame is any frame a tab sends on the sdk socket.
type clientFrame struct {
	Type         string          `json:"type"`
	Content      *string         `json:"content"`
	RequestID    string          `json:"requestId"`
	Behavior     string          `json:"behavior"`
	Message      string          `json:"message"`
	UpdatedInput json.RawMessage `json:"updatedInput"`
	After        string          `json:"after"`
}

// HandleClient handles one frame from a tab: user-message, cancel (ignored
// when idle), permission-response and request-history (which returns the
// new Stream). Anything else is an error wrapping worker.ErrInvalid.
// Failures already shown to the tabs as error frames return nil.
func (r *Runtime) HandleClient(ctx context.Context, data []byte) (*hub.Stream, error) {
	var f clientFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("frame is not a JSON object with the fields of its type: %w", worker.ErrInvalid)
	}
	var err error
	switch f.Type {
	case "user-message":
		if f.Content == nil {
			return nil, fmt.Errorf("user-message needs a string \"content\": %w", worker.ErrInvalid)
		}
		err = r.SendUser(ctx, *f.Content)
	case "cancel":
		_, err = r.Cancel(ctx)
	case "permission-response":
		err = r.RespondPermission(f.RequestID, f.Behavior, f.Message, f.UpdatedInput)
	case "request-history":
		return r.Attach(ctx, f.After)
	case "":
		return nil, fmt.Errorf("frame has no \"type\": %w", worker.ErrInvalid)
	default:
		return nil, fmt.Errorf("unknown frame type %q for an sdk worker: %w", f.Type, worker.ErrInvalid)
	}
	var shown reportedError
	if errors.As(err, &shown) {
		return nil, nil
	}
	return nil, err
}

// publishedSeq is the seq of the last stored message the tabs were sent.
func (r *Runtime) publishedSeq() uint64 {
	r.pubMu.Lock()
	defer r.pubMu.Unlock()
	return r.cursor
}
