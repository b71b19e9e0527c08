package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

var (
	// ErrWrongBranch means the main work tree is not on the base branch
	// a merge back goes into.
	ErrWrongBranch = errors.New("main work tree is not on the base branch")
	// ErrNothingToMerge means the branch has no commit the base lacks.
	ErrNothingToMerge = errors.New("nothing to merge")
)

// ConflictError is a merge back that git could not finish: the merge was
// aborted and Files lists the paths that conflicted.
type ConflictError struct {
	Branch, Base string
	Files        []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("merging %s into %s conflicts in %s; the merge was aborted",
		e.Branch, e.Base, strings.Join(e.Files, ", "))
}

// MergeTimeout bounds one merge back, hooks included.
const MergeTimeout = 2 * time.Minute

// mergeMu serialises merges back within this process: two merges into
// the same main work tree must not interleave their checks and git runs.
var mergeMu sync.Mutex

// MergeBack merges branch into base in the repository's main work tree
// (repo is any directory of it). squash makes one commit of the branch's
// changes; otherwise a merge commit (--no-ff) is made. message is the
// commit message ("" for git's default, or "Squash branch <b>").
//
// It refuses, changing nothing, when the main work tree is not on base
// (ErrWrongBranch), has staged or modified tracked files (ErrDirty), or
// branch has nothing base lacks (ErrNothingToMerge). When git stops on a
// conflict it aborts the merge, so the work tree is as before, and returns
// a *ConflictError listing the files. It returns the new HEAD.
func MergeBack(ctx context.Context, repo, branch, base string, squash bool, message string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, MergeTimeout)
	defer cancel()
	mergeMu.Lock()
	defer mergeMu.Unlock()
	top, err := mainWorkTree(ctx, repo)
	if err != nil {
		return "", fmt.Errorf("merge %s: %w", branch, err)
	}
	if err := checkMergeable(ctx, top, branch, base); err != nil {
		return "", fmt.Errorf("merge %s into %s: %w", branch, base, err)
	}
	ref := "refs/heads/" + branch
	if squash {
		err = squashMerge(ctx, top, ref, branch, message)
	} else {
		if message == "" {
			message, err = mergeMessage(ctx, top, ref, branch)
		}
		if err == nil {
			_, err = Git(ctx, top, "merge", "--no-ff", "--no-edit", "-m", message, ref)
		}
	}
	if err != nil {
		return "", undoMerge(ctx, top, branch, base, err)
	}
	out, err := Git(ctx, top, "rev-parse", "HEAD")
	if err != nil {
		return "", fmt.Errorf("read merged HEAD: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// mergeMessage is git's default message for merging branch, as git merge
// writes it for a short name ("Merge branch 'feat'", with " into <base>"
// and a log as the repository's merge settings say). Merging by the full
// ref (never mistaken for a tag) would make it "Merge branch
// 'refs/heads/feat'".
func mergeMessage(ctx context.Context, top, ref, branch string) (string, error) {
	head, err := Git(ctx, top, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("read %s: %w", ref, err)
	}
	line := strings.TrimSpace(string(head)) + "\t\tbranch '" + branch + "' of .\n"
	out, err := GitInput(ctx, top, []byte(line), "fmt-merge-msg")
	if err != nil {
		return "", fmt.Errorf("default merge message: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func squashMerge(ctx context.Context, top, ref, branch, message string) error {
	if _, err := Git(ctx, top, "merge", "--squash", ref); err != nil {
		return err
	}
	if message == "" {
		message = "Squash branch " + branch
	}
	_, err := GitInput(ctx, top, []byte(message), "commit", "-q", "-F", "-")
	return err
}

// mainWorkTree returns the top of the repository's main work tree, from
// any directory of the repository or of one of its linked worktrees.
func mainWorkTree(ctx context.Context, repo string) (string, error) {
	_, common, err := GitDirs(ctx, repo)
	if err != nil {
		return "", err
	}
	out, err := Git(ctx, repo, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return "", err
	}
	// The first record is always the main work tree.
	first, _, _ := bytes.Cut(out, []byte{0})
	path, ok := strings.CutPrefix(string(first), "worktree ")
	if !ok || path == "" {
		return "", fmt.Errorf("no main work tree for %s: %w", common, ErrNotRepo)
	}
	return path, nil
}

func checkMergeable(ctx context.Context, top, branch, base string) error {
	cur, err := CurrentBranch(ctx, top)
	if err != nil {
		return err
	}
	if cur != base {
		return fmt.Errorf("%s has %q checked out, not %q: %w", top, cur, base, ErrWrongBranch)
	}
	// Untracked files do not count: git refuses by itself to overwrite one.
	out, err := Git(ctx, top, "status", "--porcelain", "-z", "--untracked-files=no")
	if err != nil {
		return err
	}
	if len(out) > 0 {
		return fmt.Errorf("%s has uncommitted changes: %w", top, ErrDirty)
	}
	n, err := Ahead(ctx, top, branch, base)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s has no commits that %s lacks: %w", branch, base, ErrNothingToMerge)
	}
	return nil
}

// undoMerge puts the main work tree back as it was after a failed merge
// and says why it failed: a *ConflictError when files conflicted, else
// git's own error. It runs even when ctx is done.
func undoMerge(ctx context.Context, top, branch, base string, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultTimeout)
	defer cancel()
	out, _ := Git(ctx, top, "diff", "--name-only", "--diff-filter=U", "-z")
	var files []string
	for f := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	// reset --merge undoes both a stopped merge (it clears MERGE_HEAD) and
	// a stopped squash (which has none), keeping nothing of either: the
	// work tree was clean before.
	if _, err := Git(ctx, top, "reset", "-q", "--merge"); err != nil {
		return errors.Join(fmt.Errorf("merge %s: %w", branch, cause), fmt.Errorf("undo the failed merge: %w", err))
	}
	if len(files) > 0 {
		return &ConflictError{Branch: branch, Base: base, Files: files}
	}
	return fmt.Errorf("merge %s into %s: %w", branch, base, cause)
}

// Ahead counts the commits of branch that base lacks.
func Ahead(ctx context.Context, dir, branch, base string) (int, error) {
	out, err := Git(ctx, dir, "rev-list", "--count", "refs/heads/"+base+"..refs/heads/"+branch, "--")
	if err != nil {
		return 0, fmt.Errorf("count commits of %s not in %s: %w", branch, base, err)
	}
	var n int
	if _, err := fmt.Sscanf(string(out), "%d", &n); err != nil {
		return 0, fmt.Errorf("count commits: %q: %w", out, err)
	}
	return n, nil
}
