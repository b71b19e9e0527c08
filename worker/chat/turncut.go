package chat

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// A turn a restart cut short. The log has a turn's start on disk (the
// user message is committed before the agent gets it, and so is every
// complete line of the reply), but what was being streamed (deltas of a
// message not yet complete) and the turn's end are not: after a SIGKILL,
// or a shutdown, mid-turn, the chat would show the turn as if it had
// quietly ended. A restored worker looks at the tail of its log: a turn
// that began (a user or assistant line of its own) with no result after
// it is closed with a stored note,
//
//	{"type":"system","subtype":"agentdesk_turn_cut","reason":"restart","uuid":…,"session_id":…}
//
// which the chat shows as the turn's end, as a Cancel's turn ends with
// "Interrupted". A turn that waits on a permission request kept across
// the restart (pending.go) is not cut: it goes on once answered.

// cutScanPage and cutScanMax bound the look back for the turn's start: a
// result is usually among the last lines.
const (
	cutScanPage = 64
	cutScanMax  = 4096
)

// turnCutNote is the stored note that closes a cut turn.
type turnCutNote struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Reason    string `json:"reason"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// closeCutTurn stores the note when the log's last turn has no end. It
// runs once, at the worker's start, for a restored worker that drives the
// conversation.
func (h *history) closeCutTurn(pending int) {
	if !h.env.Restored || h.readOnly || pending > 0 {
		return
	}
	open, err := h.lastTurnOpen()
	if err != nil {
		h.log.Warn("look for a turn the restart cut", "err", err)
		return
	}
	if !open {
		return
	}
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(turnCutNote{Type: "system", Subtype: "agentdesk_turn_cut", Reason: "restart", UUID: id, SessionID: h.conv})
	if err := h.j.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}}); err != nil {
		h.log.Warn("close the turn the restart cut", "err", err)
	}
}

// lastTurnOpen reads the log backwards to the last line that says whether
// a turn runs: a result or one of agentdesk's notes that end or precede
// turns (no), or a user or assistant line the agent printed or agentdesk
// sent in this chat (yes). Imported history and messages that began no
// turn (agent.Records) say nothing, as in journal.applyLocked.
func (h *history) lastTurnOpen() (bool, error) {
	var before uint64
	for read := 0; read < cutScanMax; read += cutScanPage {
		msgs, err := h.env.Store.MessagesBeforePage(h.env.Info.ID, before, 0, cutScanPage, 0)
		if err != nil || len(msgs) == 0 {
			return false, err
		}
		for _, m := range msgs {
			if open, decided := h.turnEdge(m.Data); decided {
				return open, nil
			}
		}
		before = msgs[len(msgs)-1].Seq
	}
	return false, nil
}

// turnEdge classifies one stored frame for lastTurnOpen.
func (h *history) turnEdge(frame []byte) (open, decided bool) {
	line, err := frameMessage(frame)
	if err != nil {
		return false, false
	}
	var l struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		Source  string `json:"agentdeskSource"`
	}
	if json.Unmarshal(line, &l) != nil {
		return false, false
	}
	switch {
	case l.Type == "result":
		return false, true
	case l.Type == "system" && (l.Subtype == "agentdesk_turn_cut" || l.Subtype == "agentdesk_imported" ||
		l.Subtype == "agentdesk_import_failed"):
		return false, true
	case l.Source != "" || h.replayed(line):
		return false, false // history: no turn of this chat
	case l.Type == "user" || l.Type == "assistant":
		return true, true
	}
	return false, false
}

// replayed reports whether a stored message began no turn although it
// may look like it did (agent.Records).
func (h *history) replayed(msg []byte) bool {
	rec, ok := h.driver.(agent.Records)
	return ok && rec.Replayed(msg)
}
