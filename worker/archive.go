package worker

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// ArchiveSession removes the session's worktree (refused while it has
// changes, unless force) and stops its workers, but keeps the session, its
// workers' records and their output: the conversation stays readable,
// read-only. An archived session takes no new worker. Archiving an
// archived session changes nothing.
func (m *Manager) ArchiveSession(ctx context.Context, sid string, force bool) (Session, error) {
	lock, err := m.switchLock(sid)
	if err != nil {
		return Session{}, err
	}
	// The switch lock: no switch starts a new agent meanwhile.
	lock.Lock()
	defer lock.Unlock()
	s, err := m.Session(sid)
	if err != nil || s.Archived {
		return s, err
	}
	wt := s.Worktree
	if wt != nil && !worktreeGone(wt.Path) && !force {
		// Refuse before anything stops: a refused archive changes nothing.
		dirty, err := gitrepo.Dirty(ctx, wt.Path)
		if err != nil {
			return Session{}, fmt.Errorf("archive: %w", err)
		}
		if dirty {
			return Session{}, fmt.Errorf("worktree %s has uncommitted changes; commit them or archive with force=true: %w", wt.Path, ErrConflict)
		}
	}
	if err := m.stopSessionWorkers(ctx, sid); err != nil {
		m.log.Error("stop workers of archived session", "session", sid, "err", err)
	}
	m.mu.RLock()
	if st := m.sessions[sid]; st != nil {
		st.box.close() // its bridges; the home stays with the session
	}
	m.mu.RUnlock()
	if wt != nil && !worktreeGone(wt.Path) {
		if err := removeWorktree(ctx, wt, force); err != nil {
			return Session{}, err
		}
	}
	return m.changeSession(sid, func(s *Session) { s.Archived = true })
}

// restoreFailed logs a worker whose runtime could not be rebuilt at start.
// An archived session's worktree was removed by design: a worker that
// needs its folder (the diff) cannot be rebuilt there, and that is no
// error (its record stays, stopped).
func (m *Manager) restoreFailed(s Session, wid string, err error) {
	if s.Archived && s.Worktree != nil && worktreeGone(s.Worktree.Path) {
		m.log.Debug("archived session: worker not rebuilt, its worktree was removed", "worker", wid, "err", err)
		return
	}
	m.log.Error("restore worker", "worker", wid, "err", err)
}

// worktreeGone reports whether a worktree's folder no longer exists (the
// person removed it by hand): archiving then has nothing to remove.
func worktreeGone(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, os.ErrNotExist)
}

// stopSessionWorkers stops every worker of a session for good: their
// records stay, as stopped, like an agent switched away.
func (m *Manager) stopSessionWorkers(ctx context.Context, sid string) error {
	type running struct {
		info Info
		rt   Runtime
	}
	var all []running
	m.mu.RLock()
	if st, ok := m.sessions[sid]; ok {
		for _, ws := range st.workers {
			all = append(all, running{ws.info.clone(), ws.rt})
		}
	}
	m.mu.RUnlock()
	var errs []error
	for _, w := range all {
		if w.info.Status == StatusStopped {
			continue
		}
		m.silence(sid, w.info.ID)
		if w.rt != nil {
			if err := m.stopWorker(ctx, w.info.ID, w.rt); err != nil {
				errs = append(errs, fmt.Errorf("stop %s: %w", w.info.Name, err))
			}
		}
		m.changeWorker(sid, w.info.ID, origin{by: byManager}, func(i *Info) {
			i.Status, i.Activity = StatusStopped, nil
		})
	}
	return errors.Join(errs...)
}
