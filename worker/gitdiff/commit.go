package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// ErrEmptyMessage means Commit got a message with nothing but white space.
var ErrEmptyMessage = errors.New("the commit message is empty")

// ErrNoRemote means Push found no remote, or HEAD is not on a branch.
var ErrNoRemote = errors.New("nothing to push to")

// PushTimeout bounds a push: a remote that does not answer (or a transport
// that would wait for a password; GIT_TERMINAL_PROMPT=0 already refuses
// to ask) fails with git's message instead of hanging.
const PushTimeout = 60 * time.Second

// StageHunk applies one hunk of path's unstaged change to the index. id is
// the hunk's id in the Stage the person saw; a hunk that changed since
// fails with ErrStale and nothing is staged.
func StageHunk(ctx context.Context, dir, path, id string) error {
	return applyHunk(ctx, dir, SideUnstaged, path, id)
}

// UnstageHunk takes one hunk of path's staged change out of the index
// (the work tree keeps it).
func UnstageHunk(ctx context.Context, dir, path, id string) error {
	return applyHunk(ctx, dir, SideStaged, path, id)
}

func applyHunk(ctx context.Context, dir, which, path, id string) error {
	ctx, cancel, top, err := opContext(ctx, dir)
	if err != nil {
		return err
	}
	defer cancel()
	f, err := current(ctx, top, which, path, "")
	if err != nil {
		return err
	}
	if f.Status != StatusModified || f.Binary || f.Truncated {
		return fmt.Errorf("%s: %w", path, ErrNoHunks)
	}
	for i := range f.Hunks {
		if hunkID(path, &f.Hunks[i]) != id {
			continue
		}
		patch := patchHeader(path) + hunkPatch(&f.Hunks[i])
		args := []string{"apply", "--cached", "--whitespace=nowarn"}
		if which == SideStaged {
			args = append(args, "--reverse")
		}
		_, err := runOp(ctx, top, "apply", []byte(patch), append(args, "-")...)
		return err
	}
	return fmt.Errorf("hunk of %s: %w", path, ErrStale)
}

// patchHeader is the header git apply needs for an edit of path.
func patchHeader(path string) string {
	a, b := quotePath("a/"+path), quotePath("b/"+path)
	return "diff --git " + a + " " + b + "\n--- " + a + "\n+++ " + b + "\n"
}

// Commit records the index with message and returns the new commit's sha.
// The repository's hooks run as for any commit; git's refusal (nothing
// staged, no identity, a hook failing) comes back as a GitError.
func Commit(ctx context.Context, dir, message string) (string, error) {
	if strings.TrimSpace(message) == "" {
		return "", ErrEmptyMessage
	}
	ctx, cancel, top, err := opContext(ctx, dir)
	if err != nil {
		return "", err
	}
	defer cancel()
	if _, err := runOp(ctx, top, "commit", []byte(message), "commit", "-q", "-F", "-"); err != nil {
		return "", err
	}
	head, err := headSHA(ctx, top)
	if err != nil || head == nil {
		return "", fmt.Errorf("read the new commit: %w", err)
	}
	return *head, nil
}

// Push pushes the checked-out branch to the Stage's remote and sets it as
// the branch's upstream (git push -u <remote> <branch>).
func Push(ctx context.Context, dir string) error {
	ctx, cancel := context.WithTimeout(ctx, PushTimeout)
	defer cancel()
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		return err
	}
	var st Stage
	if err := branchInfo(ctx, top, &st); err != nil {
		return err
	}
	if st.Branch == nil {
		return fmt.Errorf("HEAD is not on a branch: %w", ErrNoRemote)
	}
	if st.Remote == nil {
		return fmt.Errorf("the repository has no remote: %w", ErrNoRemote)
	}
	_, err = runOp(ctx, top, "push", nil, "push", "-u", "--", *st.Remote, *st.Branch)
	return err
}
