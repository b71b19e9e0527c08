package claude

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLineSize caps one stdout line. Real lines are a few KB, the initialize
// response about 17 KB, and tool output can make a line several MB.
const MaxLineSize = 32 << 20

// tooLongPrefix is how much of an over-long line Line.Raw keeps, for logs.
const tooLongPrefix = 4 << 10

// Line is one stdout line of the CLI, decoded just enough to dispatch on.
type Line struct {
	// Raw is the exact line without its newline. The receiver owns it. For
	// an over-long line it holds only the start of the line.
	Raw []byte
	// Type and Subtype are the top-level "type" and "subtype". For
	// control_request lines Subtype is request.subtype (e.g. "can_use_tool");
	// for control_response lines it is response.subtype ("success"/"error").
	Type, Subtype string
	// UUID is the top-level "uuid", when the line has one.
	UUID string
	// RequestID is the control protocol id: request_id of a control_request,
	// response.request_id of a control_response; "" on other lines (the API
	// request_id of assistant lines is left in Raw).
	RequestID string
	// Err is set when Raw could not be decoded (ErrBadLine) or was too long
	// (ErrLineTooLong). The other fields are then empty.
	Err error

	// buf holds Raw at off, with room around it (see Wrap); nil when the
	// line has none.
	buf []byte
	off int
}

// ParseLine decodes one stdout line. It never panics. The line must be a
// single valid JSON object (by encoding/json's rules) whose "type" is a
// non-empty string; other fields that are not strings read as "". On error
// the Line still carries b as Raw. Raw aliases b: copy b first if it is
// reused.
func ParseLine(b []byte) (Line, error) {
	var typ, sub, id, reqID, req, resp []byte
	ok := fields(b, func(key, val []byte) {
		// Later duplicates win, as with encoding/json.
		switch {
		case keyIs(key, "type"):
			typ = val
		case keyIs(key, "subtype"):
			sub = val
		case keyIs(key, "uuid"):
			id = val
		case keyIs(key, "request_id"):
			reqID = val
		case keyIs(key, "request"):
			req = val
		case keyIs(key, "response"):
			resp = val
		}
	})
	if !ok {
		return Line{Raw: b}, fmt.Errorf("%w: not a JSON object", ErrBadLine)
	}
	l := Line{Raw: b}
	l.Type, _ = unquote(typ)
	if l.Type == "" {
		return l, fmt.Errorf("%w: no type", ErrBadLine)
	}
	l.Subtype, _ = unquote(sub)
	l.UUID, _ = unquote(id)
	switch l.Type {
	case "control_request":
		l.Subtype, _ = innerString(req, "subtype")
		l.RequestID, _ = unquote(reqID)
	case "control_response":
		l.Subtype, _ = innerString(resp, "subtype")
		l.RequestID, _ = innerString(resp, "request_id")
	}
	return l, nil
}

// innerString returns the string member name of a raw JSON object value
// (already validated), or "" when obj is no object or has no such string.
func innerString(obj []byte, name string) (string, bool) {
	if len(obj) == 0 || obj[0] != '{' {
		return "", false
	}
	var val []byte
	fields(obj, func(key, v []byte) {
		if keyIs(key, name) {
			val = v
		}
	})
	return unquote(val)
}

// readLine returns the next line of r without its newline, as a new slice
// of exactly its length. A line longer than limit is consumed to its end
// and returned cut to tooLongPrefix bytes, with ErrLineTooLong. At the end
// of input it returns the unterminated rest (if any) with io.EOF.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	buf, off, err := readLineRoom(r, limit)
	return buf[off:], err
}

// Room readLineRoom leaves around a line longer than the read buffer, for
// Line.Wrap.
const (
	WrapHead = 64
	WrapTail = 32
)

// readLineRoom is readLine, but a line longer than r's buffer comes in a
// buffer that leaves WrapHead bytes before it (at off) and WrapTail after.
func readLineRoom(r *bufio.Reader, limit int) (buf []byte, off int, err error) {
	chunk, err := r.ReadSlice('\n')
	if err == nil && len(chunk) <= limit+1 {
		// The common case: the line fits in the buffer. One copy.
		return bytes.Clone(chunk[:len(chunk)-1]), 0, nil
	}
	// A long line: keep copies of the buffer's pieces and join them once
	// at the end, so the line costs twice its size in allocations, never
	// more (growing one slice by append allocates about five times a
	// 30 MB line, its garbage then held until the next GC).
	var parts [][]byte
	n := 0 // length of the line so far, newline excluded
	for {
		data := chunk
		if err == nil {
			data = chunk[:len(chunk)-1]
		}
		switch {
		case n+len(data) <= limit:
			parts = append(parts, bytes.Clone(data))
		case n <= limit:
			// Too long from here: keep only the start, for the log.
			parts = [][]byte{head(append(parts, data), tooLongPrefix)}
		}
		n += len(data)
		if !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
		chunk, err = r.ReadSlice('\n')
	}
	if n > limit {
		return join(parts), 0, ErrLineTooLong
	}
	buf = joinRoom(parts)
	switch {
	case err == nil:
		return buf, WrapHead, nil
	case err == io.EOF && n == 0:
		return nil, 0, io.EOF
	default:
		return buf, WrapHead, err
	}
}

// join returns the concatenation of parts in one allocation of exactly
// its size (nil for nothing).
func join(parts [][]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return nil
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// joinRoom is join with WrapHead bytes of room before and WrapTail after.
func joinRoom(parts [][]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, WrapHead, WrapHead+n+WrapTail)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// head returns the first n bytes (or fewer) of parts joined.
func head(parts [][]byte, n int) []byte {
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p[:min(len(p), n-len(out))]...)
	}
	return out
}

// Wrap returns prefix, the line and suffix as one slice. For a long line
// (over 64 KiB) the driver leaves room around it, and Wrap builds the
// result in the line's own buffer instead of copying many MB; without room
// (or for a prefix over WrapHead or a suffix over WrapTail) it returns
// false. It writes the room: call it at most once per Line.
func (l Line) Wrap(prefix, suffix []byte) ([]byte, bool) {
	end := l.off + len(l.Raw)
	if l.buf == nil || len(prefix) > l.off || len(suffix) > cap(l.buf)-end {
		return nil, false
	}
	start := l.off - len(prefix)
	copy(l.buf[start:l.off], prefix)
	return append(l.buf[start:end], suffix...), true
}
