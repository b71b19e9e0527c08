package claude

import (
	"encoding/json"
	"fmt"
)

// importedJSON encodes l as json.Marshal does, but for two things: the
// message and the tool result are copied as they are (the session file's
// scanner validated them) and come first, and the line is built in one
// allocation of its size. A 30 MB message is then copied once, not the
// four times or so of encoding/json (its buffer grows by doubling, then
// the result is copied out).
func importedJSON(l importedLine) ([]byte, error) {
	msg, tur := l.Message, l.ToolUseResult
	l.Message, l.ToolUseResult = json.RawMessage("0"), nil
	small, err := json.Marshal(l) // {"type":"…","message":0,"uuid":…}
	if err != nil {
		return nil, err
	}
	typ, err := json.Marshal(l.Type)
	if err != nil {
		return nil, err
	}
	at := len(`{"type":`) + len(typ) + len(`,"message":`)
	if at >= len(small) || small[at] != '0' {
		return nil, fmt.Errorf("encode imported message: unexpected shape %.40q", small)
	}
	const turKey = `,"tool_use_result":`
	b := make([]byte, 0, len(small)+len(msg)+len(turKey)+len(tur))
	b = append(append(b, small[:at]...), msg...)
	if len(tur) > 0 {
		b = append(append(b, turKey...), tur...)
	}
	return append(b, small[at+1:]...), nil
}
