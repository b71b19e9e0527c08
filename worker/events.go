package worker

import (
	"encoding/json"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// The /ws/app lifecycle frames of API.md.
type (
	sessionsSync struct {
		Type     string    `json:"type"`
		Sessions []Session `json:"sessions"`
	}
	sessionEvent struct {
		Type    string  `json:"type"`
		Session Session `json:"session"`
	}
	sessionDeleted struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionId"`
	}
	workerEvent struct {
		Type   string `json:"type"`
		Worker Info   `json:"worker"`
	}
	workerDeleted struct {
		Type      string `json:"type"`
		SessionID string `json:"sessionId"`
		WorkerID  string `json:"workerId"`
	}
	workerActivity struct {
		Type      string    `json:"type"`
		SessionID string    `json:"sessionId"`
		WorkerID  string    `json:"workerId"`
		Activity  *Activity `json:"activity"`
	}
)

// The lifecycle frames, each built here and nowhere else.

func sessionCreated(s Session) any { return sessionEvent{wire.TypeSessionCreated, s} }
func sessionUpdated(s Session) any { return sessionEvent{wire.TypeSessionUpdated, s} }
func sessionGone(sid string) any   { return sessionDeleted{wire.TypeSessionDeleted, sid} }
func workerCreated(i Info) any     { return workerEvent{wire.TypeWorkerCreated, i} }
func workerUpdated(i Info) any     { return workerEvent{wire.TypeWorkerUpdated, i} }
func workerGone(sid, wid string) any {
	return workerDeleted{wire.TypeWorkerDeleted, sid, wid}
}
func workerActivityChanged(i Info) any {
	return workerActivity{wire.TypeWorkerActivity, i.SessionID, i.ID, i.Activity}
}

// publish marshals v once and sends it to every app subscriber. Callers
// hold t.mu, in the step that installs the change (commit.go), so that
// Subscribe's snapshot and the event stream never overlap or leave a gap,
// and t.commitMu, so that events go out in commit order.
func (t *table) publish(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		t.log.Error("marshal app event", "err", err)
		return
	}
	t.eventSeq++
	t.events.Publish(t.eventSeq, hub.Frame{Data: b})
}

// Subscribe returns a subscription to lifecycle events and the
// sessions-sync frame that precedes them.
func (t *table) Subscribe() (*hub.Sub, []byte, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	b, err := json.Marshal(sessionsSync{Type: wire.TypeSessionsSync, Sessions: t.sessionsLocked()})
	if err != nil {
		return nil, nil, err
	}
	sub, _ := t.events.Subscribe(256)
	return sub, b, nil
}
