package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/claudesessions"
)

// A conversation's history from the CLI's session file (claude-cli.md §8,
// §10), for a chat that takes over a conversation another worker drove
// (turns typed in the terminal UI never pass through stream-json), and
// that follows it while a claude process outside agentdesk still writes
// it. Each user and assistant entry becomes a message shaped like the
// stream-json line the CLI would have printed (importedLine); what is
// shown is decided in historyfilter.go, files kept inline are taken out in
// historyfiles.go.

// Notes a person reads about the history. They name no path: that is in
// the server's log.
const (
	missingHistory = "The earlier turns of this conversation cannot be shown here: claude's session file " +
		"for it is not in the config directory agentdesk reads (a --claude wrapper that sets its own " +
		"CLAUDE_CONFIG_DIR does this). Claude itself may still have them; new turns show as usual."
	unreadableHistory = "The earlier turns of this conversation could not be read from claude's session " +
		"file; see the server log. New turns show as usual."
	tooLongHistory = "%d earlier message(s) of this conversation are not shown here: each is larger than " +
		"%d MiB. Claude itself still has them."
	watchingNote = "A claude process outside agentdesk is writing this conversation (in a terminal, say). " +
		"Its turns appear here as they are written; the chat takes the conversation over when that process ends."
	watchEndedNote = "The other claude process has ended: the conversation continues here."
	watchBusy      = "a claude process outside agentdesk is writing this conversation: the chat shows it read-only and takes it over when that process ends"
)

// procRoot is where the writer of a session file is looked for; tests
// point it elsewhere.
var procRoot = "/proc"

// importedLine is a session entry as a stream-json-like line. Source is
// "terminal" for turns typed in the CLI's terminal UI, "chat" otherwise.
// The engine appends "attachments" for the files taken out of it.
type importedLine struct {
	Type          string          `json:"type"`
	Message       json.RawMessage `json:"message"`
	UUID          string          `json:"uuid"`
	SessionID     string          `json:"session_id"`
	Timestamp     string          `json:"timestamp,omitempty"`
	ToolUseResult json.RawMessage `json:"tool_use_result,omitempty"`
	Aborted       bool            `json:"aborted,omitempty"` // a block cut by an interrupt
	Source        string          `json:"agentdeskSource"`
}

// transcript is a session file (agent.Transcript).
type transcript struct {
	path, conv, cwd string
	offset          int64 // where ReadNew goes on: the file's size when opened, then what it read
	log             *slog.Logger
}

// History opens the session file of o.Conversation in the config
// directory the CLI of o would use (agent.History).
func (d *Driver) History(o agent.Options) (agent.Transcript, error) {
	dir := ConfigDir(ChildEnv(o.Env, d.cfg.ConfigDir))
	path, ok := FindSessionFile(dir, o.Dir, o.Conversation)
	if !ok {
		return nil, &agent.HistoryError{Missing: true, Note: missingHistory,
			Err: fmt.Errorf("no session file of conversation %s in %s", o.Conversation, dir)}
	}
	t := &transcript{path: path, conv: o.Conversation, cwd: o.Dir, log: logOf(o)}
	if fi, err := os.Stat(path); err == nil {
		t.offset = fi.Size()
	}
	return t, nil
}

// Read hands over every entry worth showing. Lines appended meanwhile are
// left to ReadNew (it starts at the size the file had when opened).
func (t *transcript) Read(fn func(agent.HistoryMessage) error) (agent.HistoryStats, error) {
	var hidden int
	var fnErr error
	st, err := ScanSession(t.path, func(e SessionEntry) error {
		if !shown(e) {
			hidden++
			return nil
		}
		m, err := t.message(e)
		if err == nil {
			err = fn(m)
		}
		fnErr = err
		return err
	})
	stats := agent.HistoryStats{Hidden: hidden, Skipped: st.Skipped, Malformed: st.Malformed}
	if st.TooLong > 0 {
		stats.Note = fmt.Sprintf(tooLongHistory, st.TooLong, MaxLineSize>>20)
	}
	switch {
	case err == nil:
		return stats, nil
	case fnErr != nil && errors.Is(err, fnErr):
		return stats, err
	}
	return stats, &agent.HistoryError{Note: unreadableHistory, Err: fmt.Errorf("read %s: %w", t.path, err)}
}

// message is entry e as the chat stores it.
func (t *transcript) message(e SessionEntry) (agent.HistoryMessage, error) {
	id := e.UUID
	if id == "" {
		id = uuid.Must(uuid.NewV7()).String()
	}
	msg := e.Message
	var m agent.HistoryMessage
	if e.Type == "user" {
		msg, m.Files = takeFiles(e.Message)
	}
	raw, err := importedJSON(importedLine{
		Type: e.Type, Message: msg, UUID: id, SessionID: t.conv, Timestamp: e.Timestamp,
		ToolUseResult: e.ToolUseResult, Aborted: e.IsAbortedMidStream, Source: source(e.Entrypoint),
	})
	if err != nil {
		return m, fmt.Errorf("encode imported message: %w", err)
	}
	m.Type, m.UUID, m.Raw = e.Type, id, raw
	return m, nil
}

// source names where an entry was typed: the terminal UI or a chat.
func source(entrypoint string) string {
	if entrypoint == EntrypointCLI {
		return "terminal"
	}
	return "chat"
}

// ReadNew hands over the complete lines appended since the last read.
func (t *transcript) ReadNew(fn func(agent.HistoryMessage) error) error {
	f, err := os.Open(t.path)
	if err != nil {
		return fmt.Errorf("open session file: %w", err)
	}
	defer f.Close()
	const window = MaxLineSize + 1<<20
	buf, err := io.ReadAll(io.NewSectionReader(f, t.offset, window))
	if err != nil {
		return fmt.Errorf("read session file: %w", err)
	}
	end := bytes.LastIndexByte(buf, '\n') + 1
	if end == 0 && len(buf) == window {
		t.log.Warn("skip a session-file line longer than the limit", "path", t.path, "offset", t.offset)
		t.offset += window // as ScanSession does with it
		return nil
	}
	for _, line := range bytes.Split(buf[:end], []byte{'\n'}) {
		e, err := ParseSessionLine(line)
		if err != nil || !shown(e) {
			continue // bookkeeping, a sidechain, a blank line
		}
		m, err := t.message(e)
		if err == nil {
			err = fn(m)
		}
		if err != nil {
			return err
		}
	}
	t.offset += int64(end)
	return nil
}

// Written reports whether a claude process writes the session file now.
func (t *transcript) Written() bool {
	fi, err := os.Stat(t.path)
	if err != nil {
		return false
	}
	s := []claudesessions.Summary{{ID: t.conv, Cwd: t.cwd, LastActivity: fi.ModTime()}}
	claudesessions.MarkLive(s, procRoot, time.Now())
	return s[0].Live
}

func (t *transcript) Notes() agent.WriterNotes {
	return agent.WriterNotes{Writing: watchingNote, Ended: watchEndedNote, Busy: watchBusy}
}
