package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
)

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
