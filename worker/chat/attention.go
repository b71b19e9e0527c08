package chat

import "encoding/json"

// PendingRequests returns the permission-request frames still waiting for
// an answer, oldest first: the attention list shows them across sessions.
func (r *Runtime) PendingRequests() []json.RawMessage {
	j := r.journal
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	var out []json.RawMessage
	for _, p := range j.pending {
		if !p.answered {
			out = append(out, json.RawMessage(p.frame))
		}
	}
	return out
}
