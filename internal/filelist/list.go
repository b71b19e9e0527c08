// Package filelist lists the files of a session's work tree for the
// composer's `@` completion, ranks them against what was typed, and caches
// the listing per directory.
//
// Inside a git work tree the listing is what git knows: tracked files plus
// untracked files that are not ignored. Outside git it is a bounded walk
// that never follows a symbolic link, lists no link that points out of the
// tree, and never enters .git, node_modules or a directory the root's
// .gitignore names. Paths are relative to the listed directory, with `/`.
package filelist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// MaxFiles bounds one listing: a tree with more files is cut at this many,
// so a session opened on / or a home directory cannot exhaust memory.
const MaxFiles = 200_000

// List returns the files under dir, sorted. ctx bounds the git command or
// the walk; a cancelled listing returns ctx's error.
func List(ctx context.Context, dir string) ([]string, error) {
	files, err := gitFiles(ctx, dir)
	if errors.Is(err, gitrepo.ErrNotRepo) {
		return walk(ctx, dir)
	}
	if err != nil {
		return nil, err
	}
	return files, nil
}

// gitFiles asks git for the tracked and the untracked-not-ignored files
// under dir (git answers relative to dir and only below it).
func gitFiles(ctx context.Context, dir string) ([]string, error) {
	out, err := gitrepo.Git(ctx, dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("list files: %w", ctx.Err())
		}
		return nil, fmt.Errorf("list files: %w", err)
	}
	files := make([]string, 0, bytes.Count(out, []byte{0}))
	for name := range bytes.SplitSeq(out, []byte{0}) {
		if len(name) > 0 && len(files) < MaxFiles {
			files = append(files, string(name))
		}
	}
	// Cached and untracked come in two sorted runs, and a file with a
	// merge conflict is listed once per stage.
	slices.Sort(files)
	return slices.Compact(files), nil
}

// Stamp is what changes when a listing may have changed without its TTL
// running out: the mtimes of dir itself and of the git index (when there
// is one). It is cheap (two stats) so the cache checks it on every query.
func Stamp(dir string) string {
	var b []byte
	for _, p := range []string{dir, indexPath(dir)} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil {
			b = fmt.Appendf(b, "%d/%d;", fi.ModTime().UnixNano(), fi.Size())
		}
	}
	return string(b)
}

// indexPath finds the git index of the work tree holding dir by looking for
// .git upwards (a directory, or a file naming the git dir of a linked
// worktree), without running git. "" when there is none.
func indexPath(dir string) string {
	for d := dir; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				return filepath.Join(dotgit, "index")
			}
			return linkedIndex(d, dotgit)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// linkedIndex reads a `.git` file ("gitdir: <path>") of a linked worktree.
func linkedIndex(top, dotgit string) string {
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return ""
	}
	gitdir, ok := bytes.CutPrefix(bytes.TrimSpace(data), []byte("gitdir: "))
	if !ok {
		return ""
	}
	p := string(gitdir)
	if !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	return filepath.Join(p, "index")
}
