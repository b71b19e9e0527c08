package worker

import "encoding/json"

// Announce sends frame, an already encoded /ws/app frame the server derives
// from the lifecycle (the attention list), to every app subscriber, in order
// with the lifecycle events.
func (t *table) Announce(frame json.RawMessage) {
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.publish(frame)
}
