package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

var (
	// ErrBranchExists means AddWorktree was asked for a branch that exists.
	ErrBranchExists = errors.New("branch already exists")
	// ErrInvalidBranch means the branch name is not a valid new branch
	// name (git check-ref-format --branch), starts with '-', or uses the
	// @{...} shorthand.
	ErrInvalidBranch = errors.New("invalid branch name")
	// ErrPathExists means the worktree path is already taken.
	ErrPathExists = errors.New("worktree path already exists")
	// ErrDirty means the worktree has uncommitted changes or untracked
	// files, so RemoveWorktree refuses without force.
	ErrDirty = errors.New("worktree has uncommitted changes")
	// ErrNotWorktree means the path is not the root of a linked worktree
	// (for example the repository's main work tree, or a subdirectory).
	ErrNotWorktree = errors.New("not the root of a linked worktree")
)

// addMu serialises AddWorktree within this process, so the "path is free"
// check and the rollback of a failed add cannot race another add.
var addMu sync.Mutex

// AddWorktree creates branch at the repository's HEAD and checks it out in
// a new linked worktree, returning the worktree's absolute path.
//
// repo is any directory inside the repository's work tree. The worktree is
// created in parentDir (default: the directory containing the repository's
// work tree) as "<repo-name>-<branch>", with every character of the branch
// other than letters, digits, '.', '_' and '-' replaced by '-'. parentDir
// must exist. On any error nothing is left on disk: no directory, no branch.
func AddWorktree(ctx context.Context, repo, branch, parentDir string) (string, error) {
	if branch == "" || strings.HasPrefix(branch, "-") || strings.Contains(branch, "@{") {
		return "", fmt.Errorf("add worktree %q: %w", branch, ErrInvalidBranch)
	}
	top, err := Toplevel(ctx, repo)
	if err != nil {
		return "", fmt.Errorf("add worktree: %w", err)
	}
	if err := checkNewBranch(ctx, top, branch); err != nil {
		return "", fmt.Errorf("add worktree %q: %w", branch, err)
	}
	addMu.Lock()
	defer addMu.Unlock()
	path, err := worktreePath(top, branch, parentDir)
	if err != nil {
		return "", fmt.Errorf("add worktree %q: %w", branch, err)
	}
	if _, err := Git(ctx, top, "worktree", "add", "--quiet", "-b", branch, "--", path); err != nil {
		rollbackAdd(ctx, top, branch, path)
		return "", fmt.Errorf("add worktree %q: %w", branch, err)
	}
	return path, nil
}

// checkNewBranch validates branch as a new branch name in the repository at
// top and checks that it does not exist yet.
func checkNewBranch(ctx context.Context, top, branch string) error {
	out, err := Git(ctx, top, "check-ref-format", "--branch", branch)
	if err != nil || strings.TrimSuffix(string(out), "\n") != branch {
		return ErrInvalidBranch
	}
	_, err = Git(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
	switch {
	case err == nil:
		return ErrBranchExists
	case ExitCode(err) == 1:
		return nil
	default:
		return err
	}
}

func worktreePath(top, branch, parentDir string) (string, error) {
	if parentDir == "" {
		parentDir = filepath.Dir(top)
	}
	parent, err := filepath.Abs(parentDir)
	if err != nil {
		return "", fmt.Errorf("resolve parent dir: %w", err)
	}
	fi, err := os.Stat(parent)
	if err != nil {
		return "", fmt.Errorf("stat parent dir: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("parent %s is not a directory", parent)
	}
	path := filepath.Join(parent, filepath.Base(top)+"-"+sanitize(branch))
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", path, ErrPathExists)
	}
	return path, nil
}

// sanitize turns a branch name into one safe path element.
func sanitize(branch string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, branch)
}

// rollbackAdd undoes what a failed "git worktree add" may have left. The
// caller checked under addMu that neither path nor branch existed, so both
// are ours to remove. It runs even when ctx is already done.
func rollbackAdd(ctx context.Context, top, branch, path string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultTimeout)
	defer cancel()
	if _, err := os.Lstat(path); err == nil {
		_ = os.RemoveAll(path)
	}
	_, _ = Git(ctx, top, "worktree", "prune")
	if _, err := Git(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		_, _ = Git(ctx, top, "branch", "-D", "--", branch)
	}
}

// RemoveWorktree removes the linked worktree whose root is path. It refuses
// with ErrDirty when the worktree has modified, staged or untracked files,
// unless force. The worktree's branch is kept. The main work tree of a
// repository is never removed (ErrNotWorktree).
func RemoveWorktree(ctx context.Context, path string, force bool) error {
	commonDir, err := linkedRoot(ctx, path)
	if err != nil {
		return fmt.Errorf("remove worktree %s: %w", path, err)
	}
	if !force {
		dirty, err := isDirty(ctx, path)
		if err != nil {
			return fmt.Errorf("remove worktree %s: %w", path, err)
		}
		if dirty {
			return fmt.Errorf("remove worktree %s: %w", path, ErrDirty)
		}
	}
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	// Run from the common dir: the worktree itself is about to vanish.
	if _, err := Git(ctx, commonDir, append(args, "--", path)...); err != nil {
		return fmt.Errorf("remove worktree %s: %w", path, err)
	}
	return nil
}

// linkedRoot checks that path is the root of a linked worktree and returns
// the repository's common git dir.
func linkedRoot(ctx context.Context, path string) (string, error) {
	top, err := Toplevel(ctx, path)
	if err != nil {
		return "", err
	}
	if !samePath(top, path) {
		return "", ErrNotWorktree
	}
	gitDir, commonDir, err := GitDirs(ctx, top)
	if err != nil {
		return "", err
	}
	if samePath(gitDir, commonDir) {
		return "", ErrNotWorktree
	}
	return commonDir, nil
}

func isDirty(ctx context.Context, dir string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	out, err := Git(ctx, dir, "status", "--porcelain", "-z", "--untracked-files=normal", "--ignore-submodules=none")
	if err != nil {
		return false, err
	}
	return len(out) > 0, nil
}

// samePath compares two paths after resolving symlinks.
func samePath(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
