package server

import (
	"encoding/json"
	"sync"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// viewers knows which session each /ws/app connection shows in a visible
// tab (its "viewing" frames), so that no push goes out for a session the
// user is looking at. A connection's entry goes when its socket ends.
type viewers struct {
	mu   sync.Mutex
	next int
	by   map[int]string // connection → session id ("" none)
}

func newViewers() *viewers { return &viewers{by: map[int]string{}} }

// add registers a connection viewing nothing; remove forgets it.
func (v *viewers) add() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.next++
	v.by[v.next] = ""
	return v.next
}

func (v *viewers) remove(id int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.by, id)
}

func (v *viewers) set(id int, sid string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, ok := v.by[id]; ok {
		v.by[id] = sid
	}
}

// viewing reports whether some connection shows sid.
func (v *viewers) viewing(sid string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, s := range v.by {
		if s == sid {
			return true
		}
	}
	return false
}

// viewingFrame parses a client frame of /ws/app; ok is false for anything
// but {"type":"viewing","sessionId":string|null}.
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
