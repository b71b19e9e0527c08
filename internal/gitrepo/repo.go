package gitrepo

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Toplevel returns the absolute root of the work tree that contains dir.
// It fails with ErrNotRepo when dir does not exist, is not a directory, or
// is not inside a work tree (a bare repository or a .git directory).
func Toplevel(ctx context.Context, dir string) (string, error) {
	if err := isDir(dir); err != nil {
		return "", err
	}
	out, err := Git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("find work tree of %s: %w", dir, err)
	}
	top := strings.TrimSuffix(string(out), "\n")
	if top == "" {
		return "", fmt.Errorf("find work tree of %s: %w", dir, ErrNotRepo)
	}
	return top, nil
}

// IsWorkTree reports whether dir is inside a git work tree.
func IsWorkTree(ctx context.Context, dir string) bool {
	if isDir(dir) != nil {
		return false
	}
	out, err := Git(ctx, dir, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// GitDirs returns the absolute git directory of the work tree containing
// dir (where its HEAD and index live) and the common directory shared by
// all worktrees of the repository (objects, refs, packed-refs). They are
// equal except in a linked worktree.
func GitDirs(ctx context.Context, dir string) (gitDir, commonDir string, err error) {
	if err := isDir(dir); err != nil {
		return "", "", err
	}
	out, err := Git(ctx, dir, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir")
	if err != nil {
		return "", "", fmt.Errorf("find git dir of %s: %w", dir, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("find git dir of %s: unexpected output %q", dir, out)
	}
	return lines[0], lines[1], nil
}

func isDir(dir string) error {
	if dir == "" {
		return fmt.Errorf("empty directory: %w", ErrNotRepo)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("stat %s: %w: %w", dir, ErrNotRepo, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory: %w", dir, ErrNotRepo)
	}
	return nil
}
