package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// CurrentBranch returns the branch checked out in the work tree that
// contains dir, or "" when HEAD is detached. It fails with ErrNotRepo when
// dir is not in a work tree.
func CurrentBranch(ctx context.Context, dir string) (string, error) {
	if err := isDir(dir); err != nil {
		return "", err
	}
	out, err := Git(ctx, dir, "symbolic-ref", "--quiet", "--short", "HEAD")
	if ExitCode(err) == 1 {
		return "", nil // detached
	}
	if err != nil {
		return "", fmt.Errorf("current branch of %s: %w", dir, err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// Dirty reports whether the work tree that contains dir has modified,
// staged or untracked files: what RemoveWorktree refuses without force.
func Dirty(ctx context.Context, dir string) (bool, error) {
	if err := isDir(dir); err != nil {
		return false, err
	}
	return isDirty(ctx, dir)
}
