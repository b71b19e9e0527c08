package worker

import (
	"fmt"
	"reflect"
)

// Every change of a session or worker runs in three steps under
// t.commitMu: compute the next record (under t.mu), commit it (without
// t.mu), then install it and broadcast it (under t.mu, so that Subscribe's
// snapshot and the event stream neither overlap nor leave a gap). Only
// changes hold commitMu, so nothing changes between the steps, and the
// events go out in the order of the commits.

// origin is who asks for a change of a worker and, for a kind, from which
// of the worker's runtimes.
type origin struct {
	by  actor
	gen uint64 // byKind: the generation the reporting runtime was built in
}

// changeWorker applies fn to a worker's record when o may make the change
// (see nextInfoLocked), persists the record, installs it and broadcasts
// worker-updated (and worker-activity when the activity changed).
func (t *table) changeWorker(sid, wid string, o origin, fn func(*Info)) {
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	t.mu.RLock()
	ws, next, ok := t.nextInfoLocked(sid, wid, o, fn)
	t.mu.RUnlock()
	if !ok {
		return
	}
	if err := t.putWorker(next); err != nil {
		t.log.Error("store worker update", "worker", wid, "err", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	activityChanged := !equalActivity(ws.info.Activity, next.Activity)
	ws.info = next
	t.publish(workerUpdated(next.clone()))
	if activityChanged {
		t.publish(workerActivityChanged(next.clone()))
	}
}

// nextInfoLocked computes a worker's next record, or refuses the change:
// when the manager is closed or the worker is gone (a delete forgets it in
// the same commitMu section that decides it), when a kind's runtime was
// stopped or replaced since it was built (a stop belongs to the manager),
// when the status move is not in the table, or when nothing changes (no
// write, which would cost a commit per worker at start-up).
func (t *table) nextInfoLocked(sid, wid string, o origin, fn func(*Info)) (*workerState, Info, bool) {
	if t.closed {
		return nil, Info{}, false
	}
	_, ws, err := t.findLocked(sid, wid)
	if err != nil || (o.by == byKind && o.gen != ws.gen) {
		return nil, Info{}, false
	}
	next := ws.info.clone()
	fn(&next)
	next.ID, next.SessionID, next.Kind = ws.info.ID, ws.info.SessionID, ws.info.Kind
	if !allowed(ws.info.Status, next.Status, o.by) {
		if ws.info.Status != StatusStopped {
			t.log.Warn("status change refused", "worker", wid, "from", ws.info.Status, "to", next.Status, "by", o.by)
		}
		return nil, Info{}, false
	}
	if reflect.DeepEqual(next, ws.info) {
		return nil, Info{}, false
	}
	return ws, next, true
}

// changeSession applies fn to a session's record, persists it, installs
// it and broadcasts session-updated.
func (t *table) changeSession(id string, fn func(*Session)) (Session, error) {
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	t.mu.RLock()
	st, ok := t.sessions[id]
	if !ok {
		t.mu.RUnlock()
		return Session{}, fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	next := t.nextSession(st.s, fn)
	t.mu.RUnlock()
	if err := t.putSession(next); err != nil {
		return Session{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.installSessionLocked(st, next), nil
}

func (t *table) nextSession(s Session, fn func(*Session)) Session {
	fn(&s)
	s.UpdatedAt = t.now()
	return s
}

// putAlong commits the session change that goes with a worker's (its
// active agent), if any. The worker's change stands when the disk refuses
// it: the failure is logged and the session left as it was (nil).
func (t *table) putAlong(next *Session, what string) *Session {
	if next == nil {
		return nil
	}
	if err := t.putSession(*next); err != nil {
		t.log.Error(what, "err", err)
		return nil
	}
	return next
}

func (t *table) installSessionLocked(st *sessionState, next Session) Session {
	st.s = next
	snap := st.snapshot()
	t.publish(sessionUpdated(snap))
	return snap
}

// silence drops every later report of the worker's current runtime: the
// manager is about to stop or replace it. It takes commitMu, so that no
// report of that runtime is half applied.
func (t *table) silence(sid, wid string) {
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ws, err := t.findLocked(sid, wid); err == nil {
		ws.gen++
	}
}
