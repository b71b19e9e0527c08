package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
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
// for it (SendUser), so they follow the history in the log. A driver
// without History imports nothing.

// importBatchBytes bounds the message bytes produced together; maxBatch
// bounds their number.
const importBatchBytes = 4 << 20

// importedMarker ends the imported history.
type importedMarker struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Count     int    `json:"count"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// importHistory is the import goroutine of a new worker; it closes
// imported when done. Failures are logged and stored as a note in the
// chat (see importFailed): the worker works without its history.
func (r *Runtime) importHistory() {
	t, im := r.importFile()
	// A process outside agentdesk may still drive the conversation (an
	// adopted one): the chat then follows it read-only (watch.go). The
	// state is set before user messages are let through.
	watch := im != nil && t.Written()
	r.setFollowing(watch, t)
	close(r.imported)
	if watch {
		r.followFile(t, im)
	}
}

// openHistory opens the agent's record of the conversation; nil and no
// error when the driver keeps none.
func (r *Runtime) openHistory() (agent.Transcript, error) {
	h, ok := r.driver.(agent.History)
	if !ok {
		return nil, nil
	}
	return h.History(agent.Options{Conversation: r.conv, Dir: r.env.Session.Cwd, Env: r.env.Config.ChildEnv, Log: r.log})
}

// importFile stores the history. It returns the record and the importer
// (nil when nothing could be read).
func (r *Runtime) importFile() (agent.Transcript, *importer) {
	start := time.Now()
	t, err := r.openHistory()
	if t == nil && err == nil {
		return nil, nil
	}
	var he *agent.HistoryError
	if errors.As(err, &he) && he.Missing {
		r.log.Info("no history to import", "conversation", r.conv, "err", he.Err)
		r.mu.Lock()
		started := r.started
		r.mu.Unlock()
		if started {
			// agentdesk's record says an agent had this conversation: its
			// record is elsewhere (a wrapper's own config directory).
			r.importFailed(he.Note)
		}
		return nil, nil
	}
	im := &importer{r: r, ids: make(map[string]struct{})}
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
		r.log.Error("import history", "conversation", r.conv, "err", err)
		note := unreadableHistory
		if errors.As(err, &he) && he.Note != "" {
			note = he.Note // the detail (a path) stays in the server's log
		}
		r.importFailed(note)
		return nil, nil
	}
	r.log.Info("imported history", "conversation", r.conv, "messages", im.count, "hidden", st.Hidden,
		"skippedLines", st.Skipped, "malformedLines", st.Malformed, "took", time.Since(start))
	return t, im
}

// importer turns the record's messages into stored entries, a batch at a
// time.
type importer struct {
	r     *Runtime
	ids   map[string]struct{} // uuids imported: a repeated one is skipped
	es    []entry
	size  int
	count int // messages produced
}

func (im *importer) add(m agent.HistoryMessage) error {
	if im.r.isStopped() {
		return errStopped
	}
	id, msg := m.UUID, m.Raw
	if id == "" {
		id = uuid.Must(uuid.NewV7()).String()
		var err error
		if msg, err = withUUID(msg, id, bytes.Contains(msg, []byte(`"uuid"`))); err != nil {
			return fmt.Errorf("imported message: %w", err)
		}
	}
	if _, dup := im.ids[id]; dup {
		return nil
	}
	im.ids[id] = struct{}{}
	msg, blobs := im.r.withFiles(msg, m.Files)
	im.es = append(im.es, entry{kind: kStored, msg: msg, uuid: id, typ: m.Type, history: true, blobs: blobs})
	im.size += len(msg)
	for _, b := range blobs {
		im.size += len(b.Data)
	}
	if len(im.es) >= maxBatch || im.size >= importBatchBytes {
		return im.flush()
	}
	return nil
}

// flush renders the batch's markdown and stores and publishes it.
func (im *importer) flush() error {
	if len(im.es) == 0 {
		return nil
	}
	im.r.renderAll(im.es)
	for _, e := range im.es {
		im.r.seen.add(e.uuid)
	}
	if err := im.r.journal.produce(im.es); err != nil {
		return err
	}
	im.count += len(im.es)
	im.es, im.size = nil, 0
	return nil
}

// finish flushes the last batch and adds the marker, when anything was
// imported.
func (im *importer) finish() error {
	if err := im.flush(); err != nil || im.count == 0 {
		return err
	}
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(importedMarker{Type: "system", Subtype: "agentdesk_imported", Count: im.count, UUID: id, SessionID: im.r.conv})
	return im.r.journal.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}})
}

// unreadableHistory is the note of an import that failed in the engine
// (the driver words its own failures).
const unreadableHistory = "The earlier turns of this conversation could not be read; see the server log. New turns show as usual."

// importFailedNote is the stored system message that says so.
type importFailedNote struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Message   string `json:"message"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// importFailed stores (and shows) why the earlier conversation is not in
// the chat, so that the reason survives a reload.
func (r *Runtime) importFailed(text string) {
	id := uuid.Must(uuid.NewV7()).String()
	msg := mustJSON(importFailedNote{Type: "system", Subtype: "agentdesk_import_failed", Message: text, UUID: id, SessionID: r.conv})
	if err := r.journal.produce([]entry{{kind: kStored, msg: msg, uuid: id, typ: "system", history: true}}); err != nil {
		r.log.Debug("import note after stop", "err", err)
	}
}

// mustJSON marshals the system messages above, made of strings and
// numbers only, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("chat: marshal message: %v", err)) // fixed shapes: a bug
	}
	return b
}
