package wire

import "encoding/json"

// The small text frames of API.md's worker sockets, each built here and
// nowhere else. They are marshalled with encoding/json so that any text in
// them is escaped correctly, and returned ready to send.

// Frame types of the worker sockets.
const (
	TypeError              = "error"
	TypeExit               = "exit"
	TypeActivity           = "activity"
	TypeHistoryEnd         = "history-end"
	TypeTruncated          = "truncated"
	TypeReset              = "reset"
	TypeSDKMessage         = "sdk-message"
	TypePermissionRequest  = "permission-request"
	TypePermissionResolved = "permission-resolved"
	TypeDiff               = "diff"
)

// Error is {"type":"error","code","message"}.
func Error(code Code, msg string) []byte {
	return mustJSON(struct {
		Type    string `json:"type"`
		Code    Code   `json:"code"`
		Message string `json:"message"`
	}{TypeError, code, msg})
}

// Exit is {"type":"exit","exitCode","signal"}: a process ended with a code
// (signal null) or by a signal (exitCode null). Both nil means unknown.
func Exit(code *int, signal *string) []byte {
	return mustJSON(struct {
		Type     string  `json:"type"`
		ExitCode *int    `json:"exitCode"`
		Signal   *string `json:"signal"`
	}{TypeExit, code, signal})
}

// ExitStatus is Exit for a process that ended with code, or by sig when
// sig is not empty.
func ExitStatus(code int, sig string) []byte {
	if sig != "" {
		return Exit(nil, &sig)
	}
	return Exit(&code, nil)
}

// Activity is {"type":"activity","state"}.
func Activity(state string) []byte {
	return mustJSON(struct {
		Type  string `json:"type"`
		State string `json:"state"`
	}{TypeActivity, state})
}

// HistoryEndUUID is the sdk socket's {"type":"history-end","last"}: last is
// the newest stored message's uuid, "" for none (null).
func HistoryEndUUID(last string) []byte {
	var l *string
	if last != "" {
		l = &last
	}
	return mustJSON(struct {
		Type string  `json:"type"`
		Last *string `json:"last"`
	}{TypeHistoryEnd, l})
}

// HistoryEndOffset is the PTY socket's {"type":"history-end","offset"}.
func HistoryEndOffset(off int64) []byte { return offsetFrame(TypeHistoryEnd, off) }

// Truncated is {"type":"truncated","offset"}: output continues at off.
func Truncated(off int64) []byte { return offsetFrame(TypeTruncated, off) }

func offsetFrame(typ string, off int64) []byte {
	return mustJSON(struct {
		Type   string `json:"type"`
		Offset int64  `json:"offset"`
	}{typ, off})
}

// Reset is {"type":"reset"}: the client drops what it had, a full replay
// follows.
func Reset() []byte { return []byte(`{"type":"reset"}`) }

// PermissionResolved is {"type":"permission-resolved","requestId","behavior"}.
func PermissionResolved(requestID, behavior string) []byte {
	return mustJSON(struct {
		Type      string `json:"type"`
		RequestID string `json:"requestId"`
		Behavior  string `json:"behavior"`
	}{TypePermissionResolved, requestID, behavior})
}

// JSON marshals a frame of a richer shape (a permission request, a diff),
// whose Type field the caller sets from the constants above.
func JSON(v any) ([]byte, error) { return json.Marshal(v) }

// mustJSON marshals a frame made only of strings, numbers and pointers to
// them, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("wire: " + err.Error())
	}
	return b
}
