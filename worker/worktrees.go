package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// WorktreeEntry is one worktree agentdesk made, as the worktrees view shows
// it: its session, and its state read from git and the disk now.
type WorktreeEntry struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	Worktree
	gitrepo.WorktreeState
	// Error says why the state could not be read (the folder is gone);
	// the state fields are then zero.
	Error *string `json:"error"`
}

// Worktrees is the domain's service over the sessions' git worktrees:
// the worktrees view, merging a session's branch back, cleaning up.
type Worktrees struct{ m *Manager }

// NewWorktrees returns the worktree service of m's sessions.
func NewWorktrees(m *Manager) *Worktrees { return &Worktrees{m: m} }

// List lists the worktrees of every session that is not archived,
// newest session first.
func (w *Worktrees) List(ctx context.Context) []WorktreeEntry {
	out := []WorktreeEntry{}
	for _, s := range w.m.Sessions() {
		if s.Worktree == nil || s.Archived {
			continue
		}
		e := WorktreeEntry{SessionID: s.ID, Title: s.Title, Worktree: *s.Worktree}
		e.Base = baseOf(ctx, *s.Worktree)
		st, err := gitrepo.StateOf(ctx, e.Path, e.Branch, e.Base)
		if err != nil {
			e.Error = ptr(stateProblem(e.Path, err))
		} else {
			e.WorktreeState = st
		}
		out = append(out, e)
	}
	return out
}

func stateProblem(path string, err error) string {
	if _, serr := os.Stat(path); serr != nil {
		return "the worktree folder is gone"
	}
	if errors.Is(err, gitrepo.ErrNotRepo) {
		return "the folder is no longer a git worktree"
	}
	return err.Error()
}

// baseOf is the branch a worktree's branch merges back into: the one
// recorded at creation, or for a worktree made before agentdesk recorded
// it, the branch now checked out in the repository.
func baseOf(ctx context.Context, wt Worktree) string {
	if wt.Base != "" {
		return wt.Base
	}
	b, _ := gitrepo.CurrentBranch(ctx, wt.Repo)
	return b
}

// MergeRequest is the body of POST /api/sessions/:sid/worktree/merge.
type MergeRequest struct {
	Mode    string `json:"mode"` // "merge" or "squash"
	Message string `json:"message"`
}

// MergeResult is what a merge back made.
type MergeResult struct {
	Base string `json:"base"`
	Head string `json:"head"` // the base branch's new commit
}

// Merge merges the session's worktree branch into its base branch
// in the repository's main work tree (gitrepo.MergeBack). A conflict comes
// back as *gitrepo.ConflictError, the merge aborted.
func (w *Worktrees) Merge(ctx context.Context, sid string, req MergeRequest) (MergeResult, error) {
	if req.Mode != "merge" && req.Mode != "squash" {
		return MergeResult{}, fieldErr("mode", `must be "merge" or "squash", got %q`, req.Mode)
	}
	wt, err := w.live(sid)
	if err != nil {
		return MergeResult{}, err
	}
	base := baseOf(ctx, wt)
	if base == "" {
		return MergeResult{}, fmt.Errorf("the base branch of %s is unknown (the repository's HEAD is detached): %w", wt.Branch, ErrConflict)
	}
	head, err := gitrepo.MergeBack(ctx, wt.Repo, wt.Branch, base, req.Mode == "squash", req.Message)
	var ce *gitrepo.ConflictError
	switch {
	case errors.As(err, &ce):
		return MergeResult{}, err // the edge lists the files
	case err != nil:
		// A refusal (ErrDirty, ErrWrongBranch, ErrNothingToMerge) or git's
		// own failure (a hook): the repository's state, shown as is.
		return MergeResult{}, fmt.Errorf("%w: %w", err, ErrConflict)
	}
	return MergeResult{Base: base, Head: head}, nil
}

// live returns the worktree of a session that has one and is not
// archived.
func (w *Worktrees) live(sid string) (Worktree, error) {
	s, err := w.m.Session(sid)
	if err != nil {
		return Worktree{}, err
	}
	if s.Worktree == nil {
		return Worktree{}, fmt.Errorf("session %s was not made with a worktree: %w", sid, ErrConflict)
	}
	if s.Archived {
		return Worktree{}, fmt.Errorf("session %s is archived: its worktree was removed: %w", sid, ErrConflict)
	}
	return *s.Worktree, nil
}

// CleanupResult says what a cleanup removed and what it kept, and why.
type CleanupResult struct {
	Removed []string      `json:"removed"`
	Kept    []CleanupKept `json:"kept"`
}

// CleanupKept is a worktree a cleanup did not remove.
type CleanupKept struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// maxCleanup bounds the paths of one cleanup request.
const maxCleanup = 500

// Cleanup removes each listed worktree that agentdesk made and
// that is clean and merged into its base, checked here and now, whatever
// the client saw; its session is archived. The branch is kept. Every other
// path is kept, with the reason.
func (w *Worktrees) Cleanup(ctx context.Context, paths []string) (CleanupResult, error) {
	if len(paths) == 0 || len(paths) > maxCleanup {
		return CleanupResult{}, fieldErr("paths", "must list 1 to %d worktree paths", maxCleanup)
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return CleanupResult{}, fieldErr("paths", "must be absolute paths, got %q", p)
		}
	}
	res := CleanupResult{Removed: []string{}, Kept: []CleanupKept{}}
	for _, p := range paths {
		if reason := w.cleanupOne(ctx, filepath.Clean(p)); reason != "" {
			res.Kept = append(res.Kept, CleanupKept{Path: p, Reason: reason})
		} else {
			res.Removed = append(res.Removed, p)
		}
	}
	return res, nil
}

// cleanupOne removes one worktree if it may go, or says why not.
func (w *Worktrees) cleanupOne(ctx context.Context, path string) string {
	s, ok := w.sessionOf(path)
	if !ok {
		return "not a worktree of a session (or its session is archived)"
	}
	base := baseOf(ctx, *s.Worktree)
	st, err := gitrepo.StateOf(ctx, path, s.Worktree.Branch, base)
	switch {
	case err != nil:
		return stateProblem(path, err)
	case st.Dirty:
		return "it has uncommitted or untracked changes"
	case !st.Merged:
		return fmt.Sprintf("its branch %s is not merged into %s", s.Worktree.Branch, base)
	}
	// RemoveWorktree checks for changes once more, as it removes.
	if _, err := w.m.ArchiveSession(ctx, s.ID, false); err != nil {
		return err.Error()
	}
	return ""
}

func (w *Worktrees) sessionOf(path string) (Session, bool) {
	for _, s := range w.m.Sessions() {
		if s.Worktree != nil && !s.Archived && filepath.Clean(s.Worktree.Path) == path {
			return s, true
		}
	}
	return Session{}, false
}

// MergeWorktree merges session sid's branch back (Worktrees.Merge), for
// the git operations service, which knows the manager's sessions only.
func (m *Manager) MergeWorktree(ctx context.Context, sid string, req MergeRequest) (MergeResult, error) {
	return NewWorktrees(m).Merge(ctx, sid, req)
}
