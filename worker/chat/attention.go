package chat

import "encoding/json"

// PendingRequests returns the permission-request frames still waiting for
// an answer, oldest first: the attention list shows them across sessions.
func (r *Runtime) PendingRequests() []json.RawMessage { return r.journal.pendingFrames() }
