package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxLineSize caps one stdout line. Lines are a few KB; a command's whole
// output or an image sent inline can make one several MB.
const MaxLineSize = 64 << 20

// ErrLineTooLong is a stdout line longer than MaxLineSize: it is skipped.
var ErrLineTooLong = errors.New("app-server line too long")

// Msg is one JSON-RPC message from the CLI that is not the answer to a
// call of ours: a notification (ID nil) or a request to us (ID set, to be
// answered with Process.Respond).
type Msg struct {
	Method string
	ID     json.RawMessage // the request's id, as sent; nil for a notification
	Params json.RawMessage
}

// IsRequest reports whether m asks for an answer.
func (m Msg) IsRequest() bool { return m.ID != nil }

// envelope is every message's outer shape. A reply has id and result or
// error; a request id and method; a notification method only.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// RPCError is an error answer to a call.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("codex: %s (code %d)", e.Message, e.Code) }

// readLine reads one line without its newline, at most limit bytes. A
// longer line is consumed and reported with ErrLineTooLong. At the end of
// input it returns the unterminated rest (if any) with the reader's error.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > limit+1 {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long && err == nil {
			return nil, ErrLineTooLong
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}
