package worker

import "encoding/json"

// Announce sends frame, an already encoded /ws/app frame the server derives
// from the lifecycle (the attention list), to every app subscriber, in order
// with the lifecycle events.
func (m *Manager) Announce(frame json.RawMessage) {
	m.commitMu.Lock()
	defer m.commitMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.publish(frame)
}
