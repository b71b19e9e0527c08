package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The CLI's session files (claude-cli.md §8): one compact JSON object a
// line, appended by every process that drives the conversation, in
// stream-json mode and in the terminal UI alike. Only the user and
// assistant lines of the main thread are the conversation; the rest
// (queue-operation, attachment, api-request*, last-prompt, cost-state,
// tools-used, ai-title, system, summary, …) is bookkeeping, and unknown
// types are expected as the CLI grows.

// ErrBadSessionLine is wrapped by ParseSessionLine for a line that is not a
// JSON object with a string "type", or a user or assistant line without a
// "message" object.
var ErrBadSessionLine = errors.New("bad session-file line")

// ErrNotConversation is wrapped by ParseSessionLine for a well-formed line
// that is not part of the visible conversation: another line type, a
// sidechain (subagent) line, or a meta line the CLI adds for the model
// only. The entry is still filled in as far as it could be decoded.
var ErrNotConversation = errors.New("not a conversation line")

// EntrypointCLI is the SessionEntry.Entrypoint of a turn typed in the
// interactive terminal UI (stream-json mode writes "sdk-cli").
const EntrypointCLI = "cli"

// SessionEntry is one user or assistant line of a session file. Message
// and ToolUseResult alias the line they were parsed from.
type SessionEntry struct {
	Type        string // "user" or "assistant"
	UUID        string
	ParentUUID  string // "" for the first line of a chain
	SessionID   string
	Timestamp   string // as written, RFC 3339
	Entrypoint  string // EntrypointCLI, "sdk-cli", or another client's
	IsSidechain bool
	IsMeta      bool
	// IsCompactSummary marks the summary the CLI writes after /compact,
	// shown collapsed by the terminal UI.
	IsCompactSummary bool
	// IsAbortedMidStream marks a partial assistant block cut by an
	// interrupt.
	IsAbortedMidStream bool
	Message            json.RawMessage // the API message object
	ToolUseResult      json.RawMessage // nil when the line has none
}

// ParseSessionLine decodes one session-file line. It never panics. The
// line must be one valid JSON object (encoding/json's grammar) with a
// string "type"; fields of the wrong JSON type read as empty. Lines other
// than main-thread, non-meta user and assistant lines return the entry so
// far with an error wrapping ErrNotConversation.
func ParseSessionLine(b []byte) (SessionEntry, error) {
	var e SessionEntry
	var typ []byte
	ok := fields(b, func(key, val []byte) {
		e.set(plainKey(key), val, &typ) // later duplicates win, as with encoding/json
	})
	if !ok {
		return SessionEntry{}, fmt.Errorf("%w: not a JSON object", ErrBadSessionLine)
	}
	e.Type, _ = unquote(typ)
	switch {
	case e.Type == "":
		return SessionEntry{}, fmt.Errorf("%w: no type", ErrBadSessionLine)
	case e.Type != "user" && e.Type != "assistant":
		return e, fmt.Errorf("%w: type %q", ErrNotConversation, e.Type)
	case e.IsSidechain:
		return e, fmt.Errorf("%w: sidechain", ErrNotConversation)
	case e.IsMeta:
		return e, fmt.Errorf("%w: meta", ErrNotConversation)
	case e.Message == nil:
		return e, fmt.Errorf("%w: %s line without a message object", ErrBadSessionLine, e.Type)
	}
	return e, nil
}

// set stores one top-level member; raw values of the wrong JSON type read
// as empty.
func (e *SessionEntry) set(key, val []byte, typ *[]byte) {
	switch string(key) {
	case `"type"`:
		*typ = val
	case `"uuid"`:
		e.UUID, _ = unquote(val)
	case `"parentUuid"`:
		e.ParentUUID, _ = unquote(val)
	case `"sessionId"`:
		e.SessionID, _ = unquote(val)
	case `"timestamp"`:
		e.Timestamp, _ = unquote(val)
	case `"entrypoint"`:
		e.Entrypoint, _ = unquote(val)
	case `"isSidechain"`:
		e.IsSidechain = string(val) == "true"
	case `"isMeta"`:
		e.IsMeta = string(val) == "true"
	case `"isCompactSummary"`:
		e.IsCompactSummary = string(val) == "true"
	case `"isAbortedMidStream"`:
		e.IsAbortedMidStream = string(val) == "true"
	case `"message"`:
		e.Message = objectOrNil(val)
	case `"toolUseResult"`:
		e.ToolUseResult = nonNull(val)
	}
}

// plainKey returns a raw key in the plain quoted form the CLI writes, so
// that an escaped spelling of a name matches it as with encoding/json.
func plainKey(key []byte) []byte {
	if bytes.IndexByte(key, '\\') < 0 {
		return key
	}
	k, _ := unquote(key)
	q, _ := json.Marshal(k) // a string: cannot fail
	return q
}

func objectOrNil(val []byte) json.RawMessage {
	if len(val) == 0 || val[0] != '{' {
		return nil
	}
	return val
}

func nonNull(val []byte) json.RawMessage {
	if len(val) == 0 || string(val) == "null" {
		return nil
	}
	return val
}

// SessionStats counts the lines of a session file by what became of them.
type SessionStats struct {
	Entries   int // conversation entries handed over
	Skipped   int // well-formed lines that are not the conversation
	Malformed int // lines that are not JSON objects with a type, or too long
	TooLong   int // of Malformed, the lines over MaxLineSize
}

// readBuf is the read buffer of ScanSession: most lines fit, longer ones
// are read from the file once they have been measured (fileLines).
const readBuf = 256 << 10

// ScanSession streams the conversation entries of the session file at
// path to fn, in file order, with lines of up to MaxLineSize bytes. Other
// lines are skipped and counted, never fatal. A missing file is an empty
// session. An error from fn stops the scan and is returned as is; read
// errors are wrapped.
func ScanSession(path string, fn func(SessionEntry) error) (SessionStats, error) {
	var st SessionStats
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("open session file: %w", err)
	}
	defer f.Close()
	lr := fileLines{f: f, r: bufio.NewReaderSize(f, readBuf), limit: maxLineSize} // MaxLineSize; lowered by tests
	for {
		line, rerr := lr.next()
		if len(line) > 0 || errors.Is(rerr, ErrLineTooLong) {
			if err := st.take(line, rerr, fn); err != nil {
				return st, err
			}
		}
		switch {
		case rerr == nil, errors.Is(rerr, ErrLineTooLong):
		case rerr == io.EOF:
			return st, nil
		default:
			return st, fmt.Errorf("read session file: %w", rerr)
		}
	}
}

// fileLines reads the lines of a file. A line that fits the buffer is
// copied out of it. A longer one is first measured, its pieces passing
// through the buffer uncopied, then read from the file into a slice of
// its exact length: a 30 MB line costs 30 MB, not the twice as much of
// keeping its pieces and joining them. A line over limit is skipped
// whole (ErrLineTooLong, no bytes).
type fileLines struct {
	f     io.ReaderAt
	r     *bufio.Reader
	pos   int64 // the file offset of the next byte r returns
	limit int
}

// next returns the next line without its newline; at the end of the
// file the unterminated rest, if any, with io.EOF.
func (l *fileLines) next() ([]byte, error) {
	start := l.pos
	chunk, err := l.r.ReadSlice('\n')
	l.pos += int64(len(chunk))
	n := int64(len(chunk))
	whole := !errors.Is(err, bufio.ErrBufferFull) // the line is all in chunk
	for errors.Is(err, bufio.ErrBufferFull) {
		chunk, err = l.r.ReadSlice('\n')
		l.pos += int64(len(chunk))
		n += int64(len(chunk))
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if err == nil {
		n-- // the newline
	}
	switch {
	case n > int64(l.limit):
		return nil, ErrLineTooLong
	case whole:
		return bytes.Clone(chunk[:n]), err
	}
	line := make([]byte, n)
	if _, rerr := l.f.ReadAt(line, start); rerr != nil {
		return nil, fmt.Errorf("read a long line again: %w", rerr)
	}
	return line, err
}

// take counts one line and hands it to fn when it is a conversation entry.
func (st *SessionStats) take(line []byte, rerr error, fn func(SessionEntry) error) error {
	if errors.Is(rerr, ErrLineTooLong) {
		st.Malformed++
		st.TooLong++
		return nil
	}
	e, err := ParseSessionLine(line)
	switch {
	case errors.Is(err, ErrNotConversation):
		st.Skipped++
	case err != nil:
		if isBlank(line) {
			return nil
		}
		st.Malformed++
	default:
		st.Entries++
		return fn(e)
	}
	return nil
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
