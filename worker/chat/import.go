package chat

import (
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// The history import. Every switch of a session's conversation creates a
// new agent worker, and turns typed in a pty-agent worker never pass
// through the chat. So a new chat worker that takes over an existing
// conversation, with an empty log, first copies the conversation so far
// from the agent's own record of it (agent.History: Claude's session
// file) into its log: one stored sdk-message per message the driver
// shows, then one marker
//
//	{"type":"system","subtype":"agentdesk_imported","count":N,"uuid":…,"session_id":…}
//
// so the chat can draw a divider. It runs once, at start: the worker that
// drove the conversation before has stopped (the manager ends its process
// before it starts this one), so the record is complete, and no other
// agentdesk process writes it while this worker lives. User messages wait
// for it (imported), so they follow the history in the log. A driver
// without History imports nothing.

// history is a worker's import of the conversation so far (import.go), its
// following of a record another process writes (watch.go) and its look at
// a turn a restart cut short (turncut.go).
type history struct {
	driver   agent.Driver
	env      *worker.Env // the Runtime's: Session.Cwd, Config.ChildEnv, Store, Info.ID, Restored
	conv     string
	readOnly bool
	started  bool // agentdesk's record says an agent had the conversation
	j        *journal
	seen     *recentIDs
	refs     refMaker
	follow   *follower
	stopping <-chan struct{}
	imported chan struct{} // closed once the history is in the log
	log      *slog.Logger
}

// openHistory opens the agent's record of the conversation; nil and no
// error when the driver keeps none.
func (h *history) openHistory() (agent.Transcript, error) {
	hd, ok := h.driver.(agent.History)
	if !ok {
		return nil, nil
	}
	return hd.History(agent.Options{Conversation: h.conv, Dir: h.env.Session.Cwd, Env: h.env.Config.ChildEnv, Log: h.log})
}

// newImporter returns an importer into the worker's log.
func (h *history) newImporter() *importer {
	return &importer{j: h.j, seen: h.seen, refs: h.refs, conv: h.conv, stopping: h.stopping, log: h.log,
		ids: make(map[string]struct{})}
}

// importFile stores the history. It returns the record and the importer
// (nil when nothing could be read).
func (h *history) importFile() (agent.Transcript, *importer) {
	start := time.Now()
	t, err := h.openHistory()
	if t == nil && err == nil {
		return nil, nil
	}
	var he *agent.HistoryError
	if errors.As(err, &he) && he.Missing {
		h.log.Info("no history to import", "conversation", h.conv, "err", he.Err)
		if h.started {
			// agentdesk's record says an agent had this conversation: its
			// record is elsewhere (a wrapper's own config directory).
			h.note("agentdesk_import_failed", he.Note)
		}
		return nil, nil
	}
	im := h.newImporter()
	im.bulk = true
	var st agent.HistoryStats
	if err == nil {
		if st, err = t.Read(im.add); err == nil {
			err = im.finish()
		}
	}
	switch {
	case errors.Is(err, errStopped):
		return nil, nil
	case err != nil:
		h.log.Error("import history", "conversation", h.conv, "err", err)
		note := unreadableHistory
		if errors.As(err, &he) && he.Note != "" {
			note = he.Note // the detail (a path) stays in the server's log
		}
		h.note("agentdesk_import_failed", note)
		return nil, nil
	}
	h.log.Info("imported history", "conversation", h.conv, "messages", im.count, "hidden", st.Hidden,
		"skippedLines", st.Skipped, "malformedLines", st.Malformed, "took", time.Since(start))
	if st.Note != "" {
		h.note("agentdesk_import_failed", st.Note)
	}
	return t, im
}

// unreadableHistory is the note of an import that failed in the engine
// (the driver words its own failures).
const unreadableHistory = "The earlier turns of this conversation could not be read; see the server log. New turns show as usual."

// systemNote is a stored system message about the chat's state: why the
// earlier conversation is not in the chat (agentdesk_import_failed), or
// that another process writes it (watch.go). Stored, it survives a reload.
type systemNote struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Message   string `json:"message"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// note stores a system note.
func (h *history) note(subtype, text string) {
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(systemNote{Type: "system", Subtype: subtype, Message: text, UUID: id, SessionID: h.conv})
	if err := h.j.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}}); err != nil {
		h.log.Debug("note after stop", "subtype", subtype, "err", err)
	}
}
