// Package gitops is "Git from the UI" (docs/api-extensions.md) and the
// worktree's merge back and push: the git operations a person runs on a
// session's work tree, one at a time per session, each answered with what
// it changed. The operations themselves are the git-diff kind's
// (worker/gitdiff) and internal/gitrepo's; this package finds the session's
// folder, holds its lock and builds the answers. It runs no goroutine.
package gitops

import (
	"context"
	"sync"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
)

// Stage is the index of a work tree: what is staged and what is not.
type Stage = gitdiff.Stage

// The failures callers tell apart (errors.Is / errors.As), each with the
// answer it deserves: the person's input, a work tree that changed or that
// git refuses to act on.
type (
	// GitError is git's own refusal, with its message.
	GitError = gitdiff.GitError
	// ConflictError is a merge back that conflicted (aborted), with the
	// files.
	ConflictError = gitrepo.ConflictError
)

var (
	ErrInvalidPath  = gitdiff.ErrInvalidPath
	ErrConfirm      = gitdiff.ErrConfirm
	ErrNoHunks      = gitdiff.ErrNoHunks
	ErrEmptyMessage = gitdiff.ErrEmptyMessage
	ErrStale        = gitdiff.ErrStale
	ErrNoRemote     = gitdiff.ErrNoRemote
	ErrNotRepo      = gitdiff.ErrNotRepo
)

// Sessions is what the git operations need of the manager.
type Sessions interface {
	Session(id string) (worker.Session, error)
	MergeWorktree(ctx context.Context, sid string, req worker.MergeRequest) (worker.MergeResult, error)
}

// Service runs the git operations of every session, serialised per
// session so that two clicks do not race for the index lock; a push holds
// the lock while it runs. Safe for concurrent use.
type Service struct {
	m     Sessions
	locks sync.Map // session id → *sync.Mutex
}

// New returns the git operations on m's sessions.
func New(m Sessions) *Service { return &Service{m: m} }

func (s *Service) lock(sid string) func() {
	m, _ := s.locks.LoadOrStore(sid, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// dir is the work tree of session sid: its folder.
func (s *Service) dir(sid string) (string, error) {
	sess, err := s.m.Session(sid)
	if err != nil {
		return "", err
	}
	return sess.Cwd, nil
}
