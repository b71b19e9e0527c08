package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxCopyFiles bounds the files CopyUntracked copies into one worktree.
const MaxCopyFiles = 1000

// ValidCopyPattern checks one pattern of the files copied into new
// worktrees: a filepath.Match pattern relative to the repository's root,
// staying inside it.
func ValidCopyPattern(p string) error {
	switch {
	case p == "" || strings.ContainsRune(p, 0):
		return errors.New("must be a non-empty pattern")
	case filepath.IsAbs(p):
		return errors.New("must be relative to the repository's root")
	case p != filepath.Clean(p) || p == "." || strings.HasPrefix(p, "../") || p == "..":
		return errors.New("must be a clean path inside the repository (no ., .. or trailing /)")
	case strings.HasPrefix(p, ".git/") || p == ".git":
		return errors.New("must not name the .git folder")
	}
	if _, err := filepath.Match(p, ""); err != nil {
		return fmt.Errorf("is not a valid pattern: %w", err)
	}
	return nil
}

// CopyUntracked copies into the worktree at dst the files of the work tree
// at src that match patterns and are not tracked by git (what a checkout
// does not bring: .env files). Only regular files are copied: symlinks are
// neither copied nor followed, and a match whose folder leads out of src
// through a symlink is skipped. Both sides are opened through an os.Root,
// so a symlink the checkout made in dst (a tracked link to a folder
// elsewhere) cannot take a copy out of the worktree: such a file is not
// copied, and the error says so. A file already in dst is left as it is.
// It returns the paths copied, relative to src, and the files that could
// not be copied joined in one error.
func CopyUntracked(ctx context.Context, src, dst string, patterns []string) ([]string, error) {
	root, err := filepath.EvalSymlinks(src)
	if err != nil {
		return nil, fmt.Errorf("copy files: %w", err)
	}
	var cands []string
	for _, p := range patterns {
		if ValidCopyPattern(p) != nil {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(root, p))
		for _, m := range matches {
			if rel, ok := insideRegular(root, m); ok && len(cands) < MaxCopyFiles {
				cands = append(cands, rel)
			}
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	tracked, err := trackedOf(ctx, root, cands)
	if err != nil {
		return nil, fmt.Errorf("copy files: %w", err)
	}
	from, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("copy files: %w", err)
	}
	defer from.Close()
	to, err := os.OpenRoot(dst)
	if err != nil {
		return nil, fmt.Errorf("copy files: %w", err)
	}
	defer to.Close()
	var copied []string
	var errs []error
	for _, rel := range cands {
		if tracked[rel] {
			continue
		}
		ok, err := copyNew(from, to, rel)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s not copied (a symlink on its path in the worktree leads out of it, or it could not be written): %w", rel, err))
			continue
		}
		if ok {
			copied = append(copied, rel)
		}
	}
	return copied, errors.Join(errs...)
}

// insideRegular returns path relative to root when it is a regular file
// (not a symlink) whose real folder is inside root.
func insideRegular(root, path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, filepath.Join(dir, filepath.Base(path)))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, ".git/") {
		return "", false
	}
	return rel, true
}

// trackedOf returns which of the paths git tracks.
func trackedOf(ctx context.Context, root string, paths []string) (map[string]bool, error) {
	// Literal: a file named "a*" is that file, not a pattern.
	args := append([]string{"--literal-pathspecs", "ls-files", "-z", "--full-name", "--"}, paths...)
	out, err := Git(ctx, root, args...)
	if err != nil {
		return nil, err
	}
	tracked := map[string]bool{}
	for f := range bytes.SplitSeq(out, []byte{0}) {
		if len(f) > 0 {
			tracked[string(f)] = true
		}
	}
	return tracked, nil
}

// copyNew copies the regular file rel of from to the same path in to,
// keeping its permission bits, unless it already exists there (then it
// reports false). Neither root lets a symlink lead out of it.
func copyNew(from, to *os.Root, rel string) (bool, error) {
	if _, err := to.Lstat(rel); err == nil {
		return false, nil
	}
	in, err := from.Open(rel)
	if err != nil {
		return false, err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("%s is no longer a regular file", rel)
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := to.MkdirAll(dir, 0o755); err != nil {
			return false, err
		}
	}
	out, err := to.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return false, err
	}
	return true, out.Close()
}
