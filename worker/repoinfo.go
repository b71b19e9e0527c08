package worker

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// RepoInfo says whether a directory is in a git work tree, for the
// new-session form (offer a worktree) and the delete dialog (warn about
// uncommitted changes).
type RepoInfo struct {
	Path   string  `json:"path"`           // the directory asked about, cleaned
	Repo   bool    `json:"repo"`           // inside a git work tree
	Root   string  `json:"root,omitempty"` // the work tree's top directory
	Branch *string `json:"branch"`         // checked out; null when detached or no repo
	// Dirty is set only when asked for: modified, staged or untracked files.
	Dirty *bool `json:"dirty,omitempty"`
}

// InspectRepo describes the git work tree containing dir. A directory that
// does not exist or is not in a work tree is no error: Repo is false.
// withStatus also runs git status (slower on big trees) to fill Dirty.
func InspectRepo(ctx context.Context, dir string, withStatus bool) (RepoInfo, error) {
	if dir == "" || !filepath.IsAbs(dir) {
		return RepoInfo{}, fieldErr("path", "must be an absolute directory path, got %q", dir)
	}
	info := RepoInfo{Path: filepath.Clean(dir)}
	root, err := gitrepo.Toplevel(ctx, info.Path)
	if errors.Is(err, gitrepo.ErrNotRepo) {
		return info, nil
	}
	if err != nil {
		return RepoInfo{}, fmt.Errorf("inspect %s: %w", info.Path, err)
	}
	info.Repo, info.Root = true, root
	branch, err := gitrepo.CurrentBranch(ctx, info.Path)
	if err != nil {
		return RepoInfo{}, fmt.Errorf("inspect %s: %w", info.Path, err)
	}
	info.Branch = &branch
	if branch == "" {
		info.Branch = nil
	}
	if withStatus {
		dirty, err := gitrepo.Dirty(ctx, info.Path)
		if err != nil {
			return RepoInfo{}, fmt.Errorf("inspect %s: %w", info.Path, err)
		}
		info.Dirty = &dirty
	}
	return info, nil
}
