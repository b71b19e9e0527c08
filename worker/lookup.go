package worker

import (
	"context"
	"fmt"
)

// The table's lookups: answered from memory, without waiting for a commit.

// Sessions returns every session, newest first.
func (t *table) Sessions() []Session {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sessionsLocked()
}

// Session returns one session.
func (t *table) Session(id string) (Session, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	st, ok := t.sessions[id]
	if !ok {
		return Session{}, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	return st.snapshot(), nil
}

// sessionWithConversation returns the session that holds the Claude
// conversation id, "" for none. The caller holds t.mu.
func (t *table) sessionWithConversation(id string) string {
	for sid, st := range t.sessions {
		if c := st.s.ClaudeSessionID; c != nil && *c == id {
			return sid
		}
	}
	return ""
}

// Worker returns one worker.
func (t *table) Worker(sid, wid string) (Info, error) {
	info, _, err := t.Runtime(sid, wid)
	return info, err
}

// WaitRuntime is Runtime, but waits (until ctx ends) for a runtime that is
// still being built.
func (t *table) WaitRuntime(ctx context.Context, sid, wid string) (Info, Runtime, error) {
	t.mu.RLock()
	_, ws, err := t.findLocked(sid, wid)
	var built chan struct{}
	if err == nil {
		built = ws.built
	}
	t.mu.RUnlock()
	if err != nil {
		return Info{}, nil, err
	}
	select {
	case <-built:
	case <-ctx.Done():
	}
	return t.Runtime(sid, wid)
}

// Runtime returns a worker and its runtime (nil while it is being built or
// when its kind is not available).
func (t *table) Runtime(sid, wid string) (Info, Runtime, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	_, ws, err := t.findLocked(sid, wid)
	if err != nil {
		return Info{}, nil, err
	}
	return ws.view(), ws.rt, nil
}
