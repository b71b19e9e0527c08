package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// Worktree records the git worktree agentdesk made for a session.
type Worktree struct {
	Repo   string `json:"repo"`
	Branch string `json:"branch"`
	Path   string `json:"path"`
	// Base is the branch checked out in Repo when the worktree was made:
	// where "merge back" goes. Empty when HEAD was detached, or for a
	// worktree made before agentdesk recorded it.
	Base string `json:"base,omitempty"`
}

// addWorktree makes the new branch and worktree a session asked for, and
// returns it; the session's cwd is its path.
func (m *Manager) addWorktree(ctx context.Context, req CreateSessionRequest) (*Worktree, error) {
	if req.Cwd != "" {
		return nil, fieldErr("cwd", "must be empty when worktree is true: the session runs in the new worktree")
	}
	if req.Repo == "" || !filepath.IsAbs(req.Repo) {
		return nil, fieldErr("repo", "must be the absolute path of a git repository, got %q", req.Repo)
	}
	if req.Branch == "" {
		return nil, fieldErr("branch", "is required: the new branch to create for the worktree")
	}
	base, _ := gitrepo.CurrentBranch(ctx, filepath.Clean(req.Repo))
	path, err := gitrepo.AddWorktree(ctx, filepath.Clean(req.Repo), req.Branch, m.cfg.WorktreeDir)
	switch {
	case errors.Is(err, gitrepo.ErrNotRepo):
		return nil, fieldErr("repo", "%q does not exist or is not a git repository", req.Repo)
	case errors.Is(err, gitrepo.ErrBranchExists):
		return nil, fieldErr("branch", "branch %q already exists in %s; choose another name", req.Branch, req.Repo)
	case errors.Is(err, gitrepo.ErrInvalidBranch):
		return nil, fieldErr("branch", "%q is not a valid branch name", req.Branch)
	case errors.Is(err, gitrepo.ErrPathExists):
		return nil, fieldErr("branch", "the worktree folder for %q already exists; choose another branch name", req.Branch)
	case err != nil:
		return nil, fmt.Errorf("create worktree: %w", err)
	}
	return &Worktree{Repo: filepath.Clean(req.Repo), Branch: req.Branch, Path: path, Base: base}, nil
}

// removeWorktree removes a session's worktree; a dirty one only when forced.
func removeWorktree(ctx context.Context, wt *Worktree, force bool) error {
	if worktreeGone(wt.Path) {
		return nil // removed by hand, or by archiving the session
	}
	err := gitrepo.RemoveWorktree(ctx, wt.Path, force)
	if errors.Is(err, gitrepo.ErrDirty) {
		return fmt.Errorf("worktree %s has uncommitted changes; commit them or delete with force=true: %w", wt.Path, ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", wt.Path, err)
	}
	return nil
}

// dropWorktree removes a worktree just made for a session that was then
// refused, with its branch, which holds nothing yet.
func dropWorktree(ctx context.Context, log *slog.Logger, wt *Worktree) {
	if err := gitrepo.RemoveWorktree(ctx, wt.Path, true); err != nil {
		log.Error("remove the worktree of a refused session", "path", wt.Path, "err", err)
		return
	}
	if _, err := gitrepo.Git(ctx, wt.Repo, "branch", "-D", wt.Branch); err != nil {
		log.Error("remove the branch of a refused session", "branch", wt.Branch, "err", err)
	}
}
