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

// mark sets the git marks of the entries of folder p and folds ignored
// folders. It reports whether p is in a git work tree. git failing (or
// absent) leaves the entries unmarked: marks are a help, not the listing.
func (t *Tree) mark(ctx context.Context, p string, entries []Entry) bool {
	sub := p
	if sub == "." {
		sub = ""
	}
	changes, err := gitrepo.Status(ctx, t.dir, sub)
	if err != nil {
		return false
	}
	marks := marksOf(sub, changes)
	for i := range entries {
		e := &entries[i]
		e.Git = marks.of(e.Name)
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
