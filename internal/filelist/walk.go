package filelist

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// skipDirs are never entered: their contents are never what one means by
// "a file of this project", and node_modules alone can hold a million.
var skipDirs = map[string]bool{".git": true, "node_modules": true, ".hg": true, ".svn": true}

// errStop ends a walk that reached a bound; it is not an error for the caller.
var errStop = errors.New("walk bound reached")

// walk lists the regular files under dir outside git, at most MaxFiles.
func walk(ctx context.Context, dir string) ([]string, error) { return walkN(ctx, dir, MaxFiles) }

// walkN lists at most limit regular files under dir. filepath.WalkDir
// never follows symbolic links; a link is listed only when it resolves to a
// regular file inside the tree.
func walkN(ctx context.Context, dir string, limit int) ([]string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("list files: %w", err)
	}
	ign := readIgnore(filepath.Join(root, ".gitignore"))
	var files []string
	// Visits (files, directories, links) are bounded too, so a huge tree
	// of skipped or empty directories still ends.
	visits := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return skipUnreadable(p, root, d, err)
		}
		if visits++; visits > 4*limit || len(files) >= limit {
			return errStop
		}
		if visits%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if p == root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p[len(root):], string(filepath.Separator)))
		if d.IsDir() {
			if skipDirs[d.Name()] || ign.match(rel, true) {
				return filepath.SkipDir
			}
			return nil
		}
		if ign.match(rel, false) || !keep(root, p, d) {
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, fmt.Errorf("list files: %w", err)
	}
	return files, nil // WalkDir visits in lexical order: already sorted
}

// skipUnreadable lets a walk go on past a directory it may not read; only
// an unreadable root is an error.
func skipUnreadable(p, root string, d fs.DirEntry, err error) error {
	if p == root {
		return err
	}
	if d != nil && d.IsDir() {
		return filepath.SkipDir
	}
	return nil
}

// keep says whether a non-directory entry is listed: regular files always,
// links only when they resolve to a regular file inside root (an `@` on a
// link to /etc/passwd would hand the agent a file outside the session).
func keep(root, p string, d fs.DirEntry) bool {
	if d.Type().IsRegular() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false // sockets, pipes, devices
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	fi, err := os.Stat(target)
	return err == nil && fi.Mode().IsRegular()
}

// ignore is the subset of a root .gitignore a walk outside git honours:
// one glob per line (filepath.Match syntax), "dir/" for directories only,
// a leading "/" anchors it to the root; a pattern without "/" matches a
// name at any depth. Comments and negations ("!") are skipped.
type ignore []ignoreRule

type ignoreRule struct {
	glob    string
	dirOnly bool
	path    bool // matches the whole relative path, not just the name
}

func readIgnore(file string) ignore {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ign ignore
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < 1000; n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		r := ignoreRule{}
		line, r.dirOnly = strings.CutSuffix(line, "/")
		anchored := strings.HasPrefix(line, "/")
		r.glob = strings.TrimPrefix(line, "/")
		r.path = anchored || strings.Contains(r.glob, "/")
		if r.glob != "" {
			ign = append(ign, r)
		}
	}
	return ign
}

func (ign ignore) match(rel string, isDir bool) bool {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	for _, r := range ign {
		if r.dirOnly && !isDir {
			continue
		}
		subject := name
		if r.path {
			subject = rel
		}
		if ok, _ := filepath.Match(r.glob, subject); ok {
			return true
		}
	}
	return false
}
