package gitrepo

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// MaxDiskEntries bounds the walk DiskUse makes of one worktree, so that a
// huge tree (node_modules) costs a bounded time; Truncated says so.
const MaxDiskEntries = 200_000

// WorktreeState is what the worktrees view and cleanup need to know of one
// linked worktree, read from git and the disk at the time of asking.
type WorktreeState struct {
	Dirty bool `json:"dirty"` // modified, staged or untracked files
	Ahead int  `json:"ahead"` // commits of the branch the base lacks
	// Merged: merging the branch into the base would change nothing (it
	// is an ancestor of the base, or its changes are already there, as
	// after a squash merge).
	Merged    bool  `json:"merged"`
	DiskBytes int64 `json:"diskBytes"`
	// DiskTruncated: the walk stopped at MaxDiskEntries; DiskBytes is a
	// lower bound.
	DiskTruncated bool `json:"diskTruncated"`
}

// StateOf reads the state of the linked worktree at path, whose branch was
// made from base.
func StateOf(ctx context.Context, path, branch, base string) (WorktreeState, error) {
	var st WorktreeState
	dirty, err := Dirty(ctx, path)
	if err != nil {
		return st, fmt.Errorf("state of %s: %w", path, err)
	}
	st.Dirty = dirty
	if st.Merged, st.Ahead, err = Merged(ctx, path, branch, base); err != nil {
		return st, fmt.Errorf("state of %s: %w", path, err)
	}
	st.DiskBytes, st.DiskTruncated = DiskUse(path, MaxDiskEntries)
	return st, nil
}

// Merged reports whether branch's changes are all in base, and how many
// commits of branch base lacks. A branch that is ahead is still merged
// when a merge of it into base would leave base's tree as it is.
func Merged(ctx context.Context, dir, branch, base string) (bool, int, error) {
	ahead, err := Ahead(ctx, dir, branch, base)
	if err != nil || ahead == 0 {
		return err == nil, ahead, err
	}
	out, err := Git(ctx, dir, "merge-tree", "--write-tree", "refs/heads/"+base, "refs/heads/"+branch)
	if ExitCode(err) == 1 {
		return false, ahead, nil // conflicts: not merged
	}
	if err != nil {
		return false, ahead, fmt.Errorf("trial merge of %s into %s: %w", branch, base, err)
	}
	tree, _, _ := strings.Cut(string(out), "\n")
	baseTree, err := Git(ctx, dir, "rev-parse", "refs/heads/"+base+"^{tree}")
	if err != nil {
		return false, ahead, fmt.Errorf("tree of %s: %w", base, err)
	}
	return tree == strings.TrimSpace(string(baseTree)), ahead, nil
}

// DiskUse sums the sizes of the files under root without following
// symlinks, visiting at most limit entries (then truncated is true).
// Entries it cannot read are skipped.
func DiskUse(root string, limit int) (total int64, truncated bool) {
	n := 0
	_ = filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip, keep counting the rest
		}
		if n++; n > limit {
			truncated = true
			return fs.SkipAll
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	return total, truncated
}
