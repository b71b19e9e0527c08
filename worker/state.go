package worker

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

type sessionState struct {
	s         Session // Workers is filled only in snapshots
	workers   []*workerState
	box       *sessionBox // nil: not sandboxed
	switching sessionLock // serialises Switch; never held with table.mu
}

// sessionLock is a mutex by another name, so that sessionState documents
// which lock it is.
type sessionLock = sync.Mutex

type workerState struct {
	info Info
	rt   Runtime
	// deleted is set once the manager decided to delete the worker: a
	// runtime built meanwhile is stopped, not installed.
	deleted bool
	// gen counts the runtimes the manager stopped or replaced: reports of
	// a runtime built in an older generation are dropped.
	gen uint64
	// built is closed once the runtime is installed or its factory failed;
	// a socket that arrives earlier waits on it instead of being refused.
	built chan struct{}
}

func newWorkerState(i Info) *workerState { return &workerState{info: i, built: make(chan struct{})} }

func (t *table) findLocked(sid, wid string) (*sessionState, *workerState, error) {
	st, ok := t.sessions[sid]
	if !ok {
		return nil, nil, fmt.Errorf("session %q: %w", sid, ErrNotFound)
	}
	for _, ws := range st.workers {
		if ws.info.ID == wid {
			return st, ws, nil
		}
	}
	return nil, nil, fmt.Errorf("worker %q: %w", wid, ErrNotFound)
}

// sessionsLocked returns snapshots of every session, newest first.
func (t *table) sessionsLocked() []Session {
	out := make([]Session, 0, len(t.sessions))
	for _, st := range t.sessions {
		out = append(out, st.snapshot())
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

func (st *sessionState) snapshot() Session {
	s := st.s
	s.Branch = headBranch(s.Cwd)
	s.MCPServers = maskedServers(s.MCPServers)
	if st.box != nil && st.box.err == nil {
		v := st.box.view
		s.SandboxView = &v
	}
	s.Workers = make([]Info, 0, len(st.workers))
	for _, ws := range st.workers {
		s.Workers = append(s.Workers, ws.view())
	}
	return s
}

// view is the worker as the API shows it: its record, with the activity
// its runtime has now (see ActivityReporter). A stopped worker has none.
func (ws *workerState) view() Info {
	i := ws.info.clone()
	if ar, ok := ws.rt.(ActivityReporter); ok && i.Activity != nil && i.Status != StatusStopped {
		if a := ar.Activity(); a != "" {
			i.Activity = &a
		}
	}
	return i
}

func (i Info) clone() Info {
	c := i
	if i.Activity != nil {
		a := *i.Activity
		c.Activity = &a
	}
	if i.ExitCode != nil {
		e := *i.ExitCode
		c.ExitCode = &e
	}
	if i.Error != nil {
		e := *i.Error
		c.Error = &e
	}
	if i.Current != nil {
		cur := *i.Current
		c.Current = &cur
	}
	c.AllowedTools = append([]string(nil), i.AllowedTools...)
	c.Limits = i.Limits.clone()
	c.Command = append([]string(nil), i.Command...)
	return c
}

func (t *table) putWorker(i Info) error {
	b, err := json.Marshal(i)
	if err != nil {
		return fmt.Errorf("encode worker: %w", err)
	}
	if err := t.store.Records().PutWorker(i.SessionID, i.ID, b); err != nil {
		return fmt.Errorf("store worker: %w", err)
	}
	return nil
}

func (t *table) putSession(s Session) error {
	s.Workers, s.SandboxView = nil, nil
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode session: %w", err)
	}
	if err := t.store.Records().PutSession(s.ID, b); err != nil {
		return fmt.Errorf("store session: %w", err)
	}
	return nil
}

func equalActivity(a, b *Activity) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func ptr[T any](v T) *T { return &v }
