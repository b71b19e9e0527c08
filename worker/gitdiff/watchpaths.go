package gitdiff

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// maxDepth bounds how deep the work tree is watched.
const maxDepth = 256

// pathKind is how the watcher treats an event's path.
type pathKind int

const (
	kindSkip pathKind = iota // irrelevant: git internals, nested .git
	kindGit                  // HEAD, index or a branch ref moved
	kindTree                 // a work-tree path, relevant unless ignored
)

// addInitial watches the git directory (non-recursively: only some of its
// direct entries matter), refs/heads and refs/remotes, and the work tree.
func (w *Watcher) addInitial(ctx context.Context) error {
	if err := w.fw.Add(w.gitDir); err != nil {
		return err
	}
	if w.commonDir != w.gitDir {
		if err := w.fw.Add(w.commonDir); err != nil {
			return err
		}
	}
	// refs itself (not recursively) shows refs/remotes appearing at the
	// first fetch; remote branches move the default base (origin/HEAD).
	_ = w.fw.Add(filepath.Join(w.commonDir, "refs"))
	w.addRefs(filepath.Join(w.commonDir, "refs", "heads"))
	w.addRefs(filepath.Join(w.commonDir, "refs", "remotes"))
	if err := w.fw.Add(w.top); err != nil {
		return err
	}
	w.addTree(ctx, []string{w.top}, false)
	return nil
}

// addRefs watches dir and every directory below it. Errors are ignored:
// the directory may vanish (a deleted branch folder) while we walk.
func (w *Watcher) addRefs(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = w.fw.Add(p)
		}
		return nil
	})
}

// addTree watches the directories in level and everything below them,
// breadth first, skipping .git and the directories git ignores (one
// check-ignore call per depth). check says whether level itself must be
// checked. Watches beyond the system's limit are silently missing: the
// rest of the tree still reports.
func (w *Watcher) addTree(ctx context.Context, level []string, check bool) {
	for depth := 0; len(level) > 0 && depth < maxDepth; depth++ {
		if check {
			level = w.notIgnored(ctx, level)
		}
		check = true
		var next []string
		for _, dir := range level {
			_ = w.fw.Add(dir)
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if e.IsDir() && e.Name() != ".git" { // symlinks are not followed
					next = append(next, filepath.Join(dir, e.Name()))
				}
			}
		}
		level = next
	}
}

// handle folds one event into b and reports whether it counts.
func (w *Watcher) handle(ctx context.Context, ev fsnotify.Event, b *batch) bool {
	switch w.classify(ev.Name) {
	case kindGit:
		if ev.Has(fsnotify.Create) && isDir(ev.Name) {
			w.addRefs(ev.Name) // a new refs/heads/<folder>, refs/remotes
		}
		b.force, b.git = true, true
		return true
	case kindTree:
		if ev.Has(fsnotify.Create) && isDir(ev.Name) {
			w.addTree(ctx, []string{ev.Name}, true)
		}
		if b.paths == nil {
			b.paths = make(map[string]struct{})
		}
		rel, err := filepath.Rel(w.top, ev.Name)
		if err != nil || len(b.paths) >= maxPending {
			b.force = true
		} else {
			b.paths[rel] = struct{}{}
		}
		return true
	}
	return false
}

func (w *Watcher) classify(name string) pathKind {
	if rel, ok := under(w.gitDir, name); ok {
		if rel == "HEAD" || rel == "index" || (w.gitDir == w.commonDir && isRefPath(rel)) {
			return kindGit
		}
		return kindSkip
	}
	if rel, ok := under(w.commonDir, name); ok {
		if isRefPath(rel) {
			return kindGit
		}
		return kindSkip
	}
	rel, ok := under(w.top, name)
	if !ok || rel == "" {
		return kindSkip
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == ".git" { // a nested repository's or submodule's git dir
			return kindSkip
		}
	}
	return kindTree
}

// isRefPath reports whether rel (inside the common dir) is a branch ref,
// a remote branch or packed-refs, and not a lock file.
func isRefPath(rel string) bool {
	if strings.HasSuffix(rel, ".lock") {
		return false
	}
	if rel == "packed-refs" {
		return true
	}
	for _, dir := range []string{filepath.Join("refs", "heads"), filepath.Join("refs", "remotes")} {
		if rel == dir || strings.HasPrefix(rel, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// under returns name relative to dir when name is dir or below it.
func under(dir, name string) (string, bool) {
	if name == dir {
		return "", true
	}
	rel, ok := strings.CutPrefix(name, dir+string(filepath.Separator))
	return rel, ok
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// notIgnored returns the directories of dirs that git does not ignore. On
// error it keeps them all: watching too much is safe.
func (w *Watcher) notIgnored(ctx context.Context, dirs []string) []string {
	rels := make([]string, 0, len(dirs))
	for _, d := range dirs {
		rel, err := filepath.Rel(w.top, d)
		if err != nil {
			return dirs
		}
		rels = append(rels, rel)
	}
	ignored, err := checkIgnore(ctx, w.top, rels)
	if err != nil {
		return dirs
	}
	kept := dirs[:0:0]
	for i, d := range dirs {
		if _, ok := ignored[rels[i]]; !ok {
			kept = append(kept, d)
		}
	}
	return kept
}

// anyNotIgnored reports whether any of the relative paths is not ignored
// by git. On error it answers true.
func (w *Watcher) anyNotIgnored(ctx context.Context, paths map[string]struct{}) bool {
	rels := make([]string, 0, len(paths))
	for p := range paths {
		rels = append(rels, p)
	}
	ignored, err := checkIgnore(ctx, w.top, rels)
	return err != nil || len(ignored) < len(rels)
}

// checkIgnore returns which of the paths (relative to top) git ignores.
// Tracked paths are never reported as ignored.
func checkIgnore(ctx context.Context, top string, rels []string) (map[string]struct{}, error) {
	in := strings.Join(rels, "\x00") + "\x00"
	out, err := gitrepo.GitInput(ctx, top, []byte(in), "check-ignore", "--stdin", "-z")
	if err != nil && gitrepo.ExitCode(err) != 1 { // 1: none ignored
		return nil, err
	}
	ignored := make(map[string]struct{})
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			ignored[p] = struct{}{}
		}
	}
	return ignored, nil
}
