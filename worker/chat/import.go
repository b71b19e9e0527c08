package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/persist"
)

// The history import. Every switch of a session's conversation creates a
// new agent worker, and turns typed in a pty-agent worker never pass
// through stream-json. So a new sdk worker that takes over an existing
// conversation, with an empty log, first copies the conversation so far
// from the CLI's session file (claude-cli.md §8, §10) into its log: one
// stored sdk-message per user and assistant entry, shaped like the
// stream-json line the CLI would have printed, then one marker
//
//	{"type":"system","subtype":"agentdesk_imported","count":N,"uuid":…,"session_id":…}
//
// so the chat can draw a divider. It runs once, at start: the worker that
// drove the conversation before has stopped (the manager ends its process
// before it starts this one), so the file is complete, and no other
// process writes it while this worker lives. User messages wait for it
// (SendUser), so they follow the history in the log.
//
// What is shown: every assistant entry (partial blocks cut by an interrupt
// included) and every user entry except what the terminal UI itself keeps
// out of the conversation: meta lines (dropped by claude.ParseSessionLine),
// the summary written by /compact, and local slash-command records whose
// text starts with <command-name>, <command-message>, <command-args>,
// <local-command-stdout>, <local-command-stderr>, <local-command-caveat>
// or <system-reminder> (in a string, or in every text block of a list
// with no other blocks), and empty ones. Tool results, the interrupt
// markers and bash-mode turns (<bash-input>, <bash-stdout>, which the model
// answers) stay.

// importBatchBytes bounds the message bytes produced together; maxBatch
// bounds their number.
const importBatchBytes = 4 << 20

// importedLine is an imported entry as a stream-json-like line. Source is
// "terminal" for turns typed in the CLI's terminal UI, "chat" otherwise.
type importedLine struct {
	Type          string          `json:"type"`
	Message       json.RawMessage `json:"message"`
	UUID          string          `json:"uuid"`
	SessionID     string          `json:"session_id"`
	Timestamp     string          `json:"timestamp,omitempty"`
	ToolUseResult json.RawMessage `json:"tool_use_result,omitempty"`
	Aborted       bool            `json:"aborted,omitempty"` // a block cut by an interrupt
	Source        string          `json:"agentdeskSource"`
	// Attachments refer to the files taken out of a user message
	// (importattach.go).
	Attachments []attachmentRef `json:"attachments,omitempty"`
}

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
	path, im, offset := r.importFile()
	// A claude process outside agentdesk may still drive the conversation
	// (an adopted one): the chat then follows it read-only (watch.go). The
	// state is set before user messages are let through.
	watch := im != nil && r.otherWriter(path)
	r.setFollowing(watch)
	close(r.imported)
	if watch {
		r.followFile(path, offset, im)
	}
}

// importFile stores the history in the session file. It returns the file,
// the importer (nil when nothing could be read) and the file's size before
// the read, where following it starts.
func (r *Runtime) importFile() (string, *importer, int64) {
	start := time.Now()
	dir := claude.ConfigDir(r.childEnv())
	path, ok := claude.FindSessionFile(dir, r.env.Session.Cwd, r.conv)
	if !ok {
		r.log.Info("no session file to import", "conversation", r.conv, "configDir", dir)
		r.mu.Lock()
		started := r.started
		r.mu.Unlock()
		if started {
			// agentdesk's record says a CLI had this conversation: its
			// file is elsewhere (a wrapper's own config directory).
			r.importFailed(missingHistory)
		}
		return "", nil, 0
	}
	var offset int64
	if fi, err := os.Stat(path); err == nil {
		offset = fi.Size()
	}
	im := &importer{r: r, ids: make(map[string]struct{})}
	st, err := claude.ScanSession(path, im.add)
	if err == nil {
		err = im.finish()
	}
	switch {
	case errors.Is(err, errStopped):
		return "", nil, 0
	case err != nil:
		r.log.Error("import session history", "path", path, "err", err)
		// The detail (a path) stays in the server's log.
		r.importFailed(unreadableHistory)
		return "", nil, 0
	}
	r.log.Info("imported session history", "path", path, "messages", im.count, "hidden", im.hidden,
		"skippedLines", st.Skipped, "malformedLines", st.Malformed, "took", time.Since(start))
	return path, im, offset
}

// importer turns session entries into stored entries, a batch at a time.
type importer struct {
	r      *Runtime
	ids    map[string]struct{} // uuids imported: a repeated one is skipped
	es     []entry
	size   int
	count  int // messages produced
	hidden int // user entries not shown
}

func (im *importer) add(e claude.SessionEntry) error {
	if im.r.isStopped() {
		return errStopped
	}
	if !shown(e) {
		im.hidden++
		return nil
	}
	id := e.UUID
	if _, dup := im.ids[id]; dup {
		return nil
	}
	if id == "" {
		id = uuid.Must(uuid.NewV7()).String()
	}
	im.ids[id] = struct{}{}
	message, refs, blobs := e.Message, []attachmentRef(nil), []persist.Blob(nil)
	if e.Type == "user" {
		message, refs, blobs = im.r.externalise(e.Message)
	}
	msg, err := json.Marshal(importedLine{
		Type: e.Type, Message: message, UUID: id, SessionID: im.r.conv, Timestamp: e.Timestamp,
		ToolUseResult: e.ToolUseResult, Aborted: e.IsAbortedMidStream, Source: source(e.Entrypoint),
		Attachments: refs,
	})
	if err != nil {
		return fmt.Errorf("encode imported message: %w", err)
	}
	im.es = append(im.es, entry{kind: kStored, msg: msg, uuid: id, typ: e.Type, history: true, blobs: blobs})
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

// Notes of a failed import, stored in the chat. They name no path: that
// is in the server's log.
const (
	missingHistory = "The earlier turns of this conversation cannot be shown here: claude's session file " +
		"for it is not in the config directory agentdesk reads (a --claude wrapper that sets its own " +
		"CLAUDE_CONFIG_DIR does this). Claude itself may still have them; new turns show as usual."
	unreadableHistory = "The earlier turns of this conversation could not be read from claude's session " +
		"file; see the server log. New turns show as usual."
)

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

// source names where an entry was typed: the terminal UI or a chat.
func source(entrypoint string) string {
	if entrypoint == claude.EntrypointCLI {
		return "terminal"
	}
	return "chat"
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
