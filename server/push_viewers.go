package server

import (
	"encoding/json"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// viewingFrame parses a client frame of /ws/app; ok is false for anything
// but {"type":"viewing","sessionId":string|null}. The session a visible
// tab shows gets no push (worker/notify's View).
func viewingFrame(data []byte) (sid string, ok bool) {
	var f struct {
		Type      string  `json:"type"`
		SessionID *string `json:"sessionId"`
	}
	if data == nil || json.Unmarshal(data, &f) != nil || f.Type != wire.TypeViewing {
		return "", false
	}
	if f.SessionID == nil {
		return "", true
	}
	return *f.SessionID, len(*f.SessionID) <= 200
}
