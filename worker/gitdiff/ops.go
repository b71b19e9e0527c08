package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

var (
	// ErrStale means a request named a file hash or hunk id that no longer
	// matches the work tree: it changed since the person saw it.
	ErrStale = errors.New("changed since it was shown")
	// ErrConfirm means discarding an untracked file was asked without the
	// second confirmation: deleting it cannot be undone.
	ErrConfirm = errors.New("deleting an untracked file needs a second confirmation")
	// ErrNoHunks means a hunk operation on a file whose change is not a
	// plain edit (added, deleted, renamed, binary or untracked files are
	// staged whole).
	ErrNoHunks = errors.New("this file is staged whole, not by hunk")
)

// GitError is a git command of an operation that git refused. Output is
// git's own message (stderr, else stdout), for the person to read.
type GitError struct {
	Op     string
	Output string
	Err    error
}

func (e *GitError) Error() string {
	if e.Output == "" {
		return "git " + e.Op + " failed"
	}
	return "git " + e.Op + " failed: " + e.Output
}

func (e *GitError) Unwrap() error { return e.Err }

// OpTimeout bounds commit (hooks run) and each file operation.
const OpTimeout = 60 * time.Second

// runOp runs one git command of an operation and turns a refusal into a
// GitError carrying git's message.
func runOp(ctx context.Context, top, op string, input []byte, args ...string) ([]byte, error) {
	out, err := gitrepo.GitInput(ctx, top, input, args...)
	if err == nil {
		return out, nil
	}
	var ge *gitrepo.Error
	if !errors.As(err, &ge) || ge.ExitCode < 0 {
		if ctx.Err() != nil {
			return nil, &GitError{Op: op, Output: "it did not finish in time", Err: err}
		}
		return nil, fmt.Errorf("git %s: %w", op, err)
	}
	msg := strings.TrimSpace(ge.Stderr)
	if msg == "" { // git commit says "nothing to commit" on stdout
		msg = strings.TrimSpace(string(out))
	}
	if len(msg) > maxOutput {
		msg = strings.ToValidUTF8(msg[:maxOutput], "") + "\n…"
	}
	return nil, &GitError{Op: op, Output: msg, Err: err}
}

// maxOutput bounds the git message a GitError carries (git commit can list
// thousands of untracked files on stdout).
const maxOutput = 4 << 10

// current finds path on one side of the index, recomputed now with
// ComputeFile's limits, and checks it against the hash the person saw.
func current(ctx context.Context, top, which, path, hash string) (*File, error) {
	if !validPath(path) {
		return nil, fmt.Errorf("%q: %w", path, ErrInvalidPath)
	}
	files, err := side(ctx, top, which, newBudget(unlimited.withDefaults()), path)
	if err != nil {
		return nil, err
	}
	for i := range files {
		if f := &files[i]; f.Path == path {
			if hash != "" && stageFiles(top, files[i:i+1])[0].Hash != hash {
				return nil, fmt.Errorf("%s: %w", path, ErrStale)
			}
			return f, nil
		}
	}
	return nil, fmt.Errorf("%s has no %s change: %w", path, which, ErrStale)
}

// opContext gives an operation its own deadline and the work tree's root.
func opContext(ctx context.Context, dir string) (context.Context, context.CancelFunc, string, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		cancel()
		return nil, nil, "", err
	}
	return ctx, cancel, top, nil
}

// StageFile stages every unstaged change of path (an untracked file is
// added, a deleted one removed). hash, when not empty, is the file's Hash in
// the Stage the person saw.
func StageFile(ctx context.Context, dir, path, hash string) error {
	ctx, cancel, top, err := opContext(ctx, dir)
	if err != nil {
		return err
	}
	defer cancel()
	if _, err := current(ctx, top, SideUnstaged, path, hash); err != nil {
		return err
	}
	_, err = runOp(ctx, top, "add", nil, "--literal-pathspecs", "add", "-A", "--", path)
	return err
}

// UnstageFile takes path's staged change out of the index (both paths of a
// rename), leaving the work tree as it is.
func UnstageFile(ctx context.Context, dir, path, hash string) error {
	ctx, cancel, top, err := opContext(ctx, dir)
	if err != nil {
		return err
	}
	defer cancel()
	f, err := current(ctx, top, SideStaged, path, hash)
	if err != nil {
		return err
	}
	paths := []string{path}
	if f.OldPath != "" {
		paths = append(paths, f.OldPath)
	}
	_, err = runOp(ctx, top, "reset", nil, append([]string{"--literal-pathspecs", "reset", "-q", "--"}, paths...)...)
	return err
}

// DiscardFile throws away path's unstaged change: a tracked file is restored
// from the index; an untracked file is deleted, only with deleteUntracked.
func DiscardFile(ctx context.Context, dir, path, hash string, deleteUntracked bool) error {
	ctx, cancel, top, err := opContext(ctx, dir)
	if err != nil {
		return err
	}
	defer cancel()
	f, err := current(ctx, top, SideUnstaged, path, hash)
	if err != nil {
		return err
	}
	if f.Status != StatusUntracked {
		_, err = runOp(ctx, top, "restore", nil, "--literal-pathspecs", "restore", "--worktree", "--", path)
		return err
	}
	if !deleteUntracked {
		return ErrConfirm
	}
	return removeUntracked(top, path)
}

// removeUntracked deletes one untracked file or symlink through os.Root, so
// a symlinked directory on the way cannot lead outside the work tree. A
// directory (a nested repository) is refused.
func removeUntracked(top, path string) error {
	root, err := os.OpenRoot(top)
	if err != nil {
		return fmt.Errorf("open work tree: %w", err)
	}
	defer root.Close()
	fi, err := root.Lstat(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, ErrStale)
	}
	if fi.IsDir() {
		return &GitError{Op: "clean", Output: path + " is a directory (a nested repository); remove it in a terminal"}
	}
	if err := root.Remove(path); err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	return nil
}
