package agent

import (
	"encoding/json"

	"github.com/agentdesk/agentdesk/internal/attach"
)

// Updater is an optional ability of a Driver whose agent takes permission
// updates with an allow (an "always allow" rule, a mode to go on in). The
// engine checks an answer's updates with it before anything happens, also
// for a request kept across a restart that no Conn can answer, and keeps
// what they change. Without it, an answer with updates is refused.
type Updater interface {
	// Updates checks raw, the updates of an answer (allow or not), and
	// returns what they change. Bad updates are an error wrapping
	// wire.ErrInvalid whose text says what to send instead.
	Updates(allow bool, raw json.RawMessage) (Updates, error)
}

// Updates are what an answer's permission updates change.
type Updates struct {
	// Mode is the permission mode the conversation goes on in; "" none.
	Mode string
	// Rules are the allow rules added, each with the agent's destination
	// ("session" rules live in the process: the engine passes them to
	// every later start).
	Rules []Rule
}

// Rule is one allow rule an answer added.
type Rule struct {
	ToolName    string
	RuleContent string
	Destination string
}

// Named is an optional ability of a Conn whose agent names the
// conversation itself (a Codex thread): Conversation is the id it runs,
// which may differ from Options.Conversation (a new conversation, or one
// the agent had no record of and started anew). The engine records it and
// passes it to every later start.
type Named interface {
	Conversation() string
}

// Records is an optional ability of a Driver: it reads what the engine
// kept of its agent when no agent runs (after a restart).
type Records interface {
	// Replayed reports whether a stored message is one that began no
	// turn (a message that came as an Event with NoTurn).
	Replayed(msg []byte) bool
	// RequestKind is the kind of a request for tool that was stored
	// without one (by an older agentdesk).
	RequestKind(tool string) RequestKind
}

// History is an optional ability of a Driver whose agent keeps its own
// record of a conversation (Claude's session file): a new chat worker that
// takes over a conversation another worker drove imports it from there,
// and follows it while a process outside agentdesk still writes it.
type History interface {
	// History opens the record of o.Conversation (o.Dir and o.Env say
	// where the agent keeps it). A record that is missing or cannot be
	// opened is a *HistoryError.
	History(o Options) (Transcript, error)
}

// Transcript is an agent's record of one conversation, opened by History.
// Not safe for concurrent use.
type Transcript interface {
	// Read calls fn with every message of the record worth showing,
	// oldest first, and returns what it left out; an error of fn ends it
	// and is returned. A record that cannot be read is a *HistoryError.
	Read(fn func(HistoryMessage) error) (HistoryStats, error)
	// ReadNew calls fn with the complete messages appended since History
	// opened the record, or since the last ReadNew (messages Read already
	// gave may come again: the engine skips a uuid it imported).
	ReadNew(fn func(HistoryMessage) error) error
	// Written reports whether a process outside agentdesk writes the
	// record now: the chat must then not start the agent on it.
	Written() bool
	// Notes are what the chat tells a person about such a process.
	Notes() WriterNotes
}

// HistoryMessage is one message of a Transcript.
type HistoryMessage struct {
	Type, UUID string // UUID "" lets the engine give it one
	// Raw is the message in the API's format, without "attachments":
	// the engine adds those for Files, as the last member.
	Raw []byte
	// Files were taken out of the message (images, documents kept inline
	// by the agent): the engine stores them apart and refers to them.
	Files []attach.File
}

// HistoryStats say what Read left out, for the log.
type HistoryStats struct {
	Hidden    int // messages not worth showing (an agent's bookkeeping)
	Skipped   int // lines that are no message
	Malformed int // lines that could not be read
	// Note, when not "", tells a person what the history leaves out (lines
	// too large to import): the chat stores it as a note.
	Note string
}

// WriterNotes are what a chat says about a process outside agentdesk that
// writes its conversation.
type WriterNotes struct {
	Writing string // stored when the chat starts following it
	Ended   string // stored when that process ended and the chat takes over
	Busy    string // the error text for what the chat refuses meanwhile
}

// HistoryError is a record of a conversation that is missing or cannot be
// read.
type HistoryError struct {
	// Missing is true when the agent keeps no record of the conversation
	// where the driver looked.
	Missing bool
	// Note says to a person why the earlier turns are not shown, naming no
	// path.
	Note string
	// Err is the detail, for the server's log.
	Err error
}

func (e *HistoryError) Error() string { return e.Err.Error() }
func (e *HistoryError) Unwrap() error { return e.Err }
