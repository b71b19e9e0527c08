package fsview

import (
	"context"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// Git marks of an Entry.
const (
	GitModified  = "modified"
	GitAdded     = "added"
	GitUntracked = "untracked"
	GitIgnored   = "ignored"
	GitConflict  = "conflict"
	// GitChanged marks a folder with a change somewhere below it.
	GitChanged = "changed"
)

// gitMarks asks git for the marks of folder p's entries while the folder
// is read: the caller gets them from apply, which waits for git.
type gitMarks struct {
	done  chan struct{}
	marks folderMarks // set before done closes
	repo  bool
}

// startMarks runs git status for folder p in its own goroutine; apply
// waits for it (so the goroutine never outlives List).
func (t *Tree) startMarks(ctx context.Context, p string) *gitMarks {
	g := &gitMarks{done: make(chan struct{})}
	sub := p
	if sub == "." {
		sub = ""
	}
	go func() {
		defer close(g.done)
		changes, err := gitrepo.Status(ctx, t.dir, sub)
		if err == nil {
			g.marks, g.repo = marksOf(sub, changes), true
		}
	}()
	return g
}

// apply sets the git marks of the entries and folds ignored folders. It
// reports whether the folder is in a git work tree. git failing (or
// absent) leaves the entries unmarked: marks are a help, not the listing.
func (g *gitMarks) apply(entries []Entry) bool {
	<-g.done
	if !g.repo {
		return false
	}
	for i := range entries {
		e := &entries[i]
		e.Git = g.marks.of(e.Name)
		if e.Type == TypeDir && e.Git == GitIgnored {
			e.Folded = true
		}
	}
	return true
}

// folderMarks are the marks of one folder's entries.
type folderMarks struct {
	all   string            // the folder itself is untracked or ignored: every entry is
	own   map[string]string // the entry's own status
	below map[string]bool   // a change (not an ignored path) below the entry
}

func (m folderMarks) of(name string) string {
	if m.all != "" {
		return m.all
	}
	if s := m.own[name]; s != "" {
		return s
	}
	if m.below[name] {
		return GitChanged
	}
	return ""
}

// marksOf sorts git's changes (paths relative to the tree) into the marks
// of the entries of folder sub ("" for the tree itself).
func marksOf(sub string, changes []gitrepo.Change) folderMarks {
	m := folderMarks{own: map[string]string{}, below: map[string]bool{}}
	for _, c := range changes {
		rel, inside := relTo(sub, c.Path)
		if !inside {
			continue
		}
		if rel == "" { // sub itself, or a folder that holds it
			m.all = markOf(c)
			continue
		}
		name, rest, deeper := strings.Cut(rel, "/")
		if deeper && rest != "" {
			if !c.Ignored() {
				m.below[name] = true
			}
			continue
		}
		m.own[name] = markOf(c)
	}
	return m
}

// relTo returns path p relative to folder sub: "" when p is sub itself
// or a folder (ending in "/") that holds sub; inside is false when p is
// elsewhere.
func relTo(sub, p string) (rel string, inside bool) {
	if sub == "" {
		return p, true
	}
	if p == "" || p == sub+"/" || (strings.HasSuffix(p, "/") && strings.HasPrefix(sub+"/", p)) {
		return "", true
	}
	return strings.CutPrefix(p, sub+"/")
}

// markOf reads porcelain's two letters.
func markOf(c gitrepo.Change) string {
	switch {
	case c.Untracked():
		return GitUntracked
	case c.Ignored():
		return GitIgnored
	case c.X == 'U' || c.Y == 'U' || (c.X == 'A' && c.Y == 'A') || (c.X == 'D' && c.Y == 'D'):
		return GitConflict
	case c.X == 'A':
		return GitAdded
	}
	return GitModified
}
