package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
)

// Change is one path of `git status` (porcelain v1): X is its state in the
// index, Y in the work tree ('?' both for untracked, '!' both for
// ignored). Path is relative to the directory Status was asked about, with
// `/`; an untracked or ignored directory is reported once, with a trailing
// slash, and nothing below it is listed.
type Change struct {
	Path string
	X, Y byte
}

// Untracked reports whether git does not know the path (nor anything
// below it, for a directory).
func (c Change) Untracked() bool { return c.X == '?' }

// Ignored reports whether the path matches an ignore rule.
func (c Change) Ignored() bool { return c.X == '!' }

// Status returns git's status of the paths under sub (relative to dir,
// "" for dir itself) in the work tree that holds dir: changed, untracked
// and ignored paths, renames shown as a deletion and an addition.
// Untracked and ignored directories are not walked (git's "normal" and
// "matching" modes), so a node_modules costs one line. A sub inside an
// ignored or untracked directory comes back as that directory, which is
// then an ancestor of sub; one that holds dir itself comes back with the
// Path "". Paths are relative to dir. It fails with
// ErrNotRepo outside a work tree.
func Status(ctx context.Context, dir, sub string) ([]Change, error) {
	out, err := Git(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("status of %s: %w", dir, err)
	}
	prefix := strings.TrimSuffix(string(out), "\n")
	spec := "."
	if sub != "" {
		spec = ":(literal)" + sub // names with *, ? or [ are names, not globs
	}
	out, err = Git(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=normal",
		"--ignored=matching", "--no-renames", "--", spec)
	if err != nil {
		return nil, fmt.Errorf("status of %s: %w", dir, err)
	}
	return parseStatus(out, prefix), nil
}

// parseStatus reads porcelain v1 -z output, whose paths are relative to
// the top of the work tree, and makes them relative to prefix (the asked
// directory's path from the top, ending in "/", or ""). A directory that
// holds prefix comes back as "" (dir itself is untracked or ignored);
// other paths outside prefix cannot come (the pathspec limits them).
func parseStatus(out []byte, prefix string) []Change {
	var cs []Change
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		if len(rec) < 4 || rec[2] != ' ' {
			continue
		}
		raw := string(rec[3:])
		p, ok := strings.CutPrefix(raw, prefix)
		switch {
		case ok && p != "":
		case strings.HasSuffix(raw, "/") && strings.HasPrefix(prefix, raw):
			p = "" // dir itself lies in an untracked or ignored directory
		default:
			continue
		}
		cs = append(cs, Change{Path: p, X: rec[0], Y: rec[1]})
	}
	return cs
}

// Tracked reports whether git's index has sub (relative to dir), or any
// file below it for a folder. It reads only the first name git lists.
func Tracked(ctx context.Context, dir, sub string) (bool, error) {
	spec := "."
	if sub != "" {
		spec = ":(literal)" + sub
	}
	found := false
	err := GitStream(ctx, dir, func(r io.Reader) error {
		var b [1]byte
		n, _ := r.Read(b[:])
		found = n > 0
		return nil
	}, "ls-files", "-z", "--", spec)
	if err != nil {
		return false, fmt.Errorf("tracked %s in %s: %w", sub, dir, err)
	}
	return found, nil
}
