package fsview

import (
	"cmp"
	"container/heap"
	"context"
	"io/fs"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Entry types.
const (
	TypeDir     = "dir"
	TypeFile    = "file"
	TypeSymlink = "symlink"
	TypeOther   = "other" // a FIFO, socket or device: listed, never opened
)

// Entry is one entry of a folder.
type Entry struct {
	Name  string    `json:"name"`
	Type  string    `json:"type"`
	Size  int64     `json:"size"` // bytes of a file; 0 otherwise
	MTime time.Time `json:"mtime"`
	// Exec is set on a file with an execute bit.
	Exec bool `json:"exec,omitempty"`
	// Target is a symbolic link's text; Points says what it leads to:
	// "dir" or "file" inside the tree, "other", "outside" (refused when
	// opened) or "broken".
	Target string `json:"target,omitempty"`
	Points string `json:"points,omitempty"`
	// Git is the entry's git mark (GitModified …), "" when clean or
	// outside a work tree.
	Git string `json:"git,omitempty"`
	// Folded marks a folder the view shows closed and never opens by
	// itself: node_modules, or one git ignores.
	Folded bool `json:"folded,omitempty"`
}

// Page is one page of a folder's entries: folders first, then the rest,
// each by name ignoring case. Next is the cursor of the next page, ""
// after the last; Total counts every entry of the folder.
type Page struct {
	Path    string  `json:"path"`
	Entries []Entry `json:"entries"`
	Next    string  `json:"next"`
	Total   int     `json:"total"`
	Repo    bool    `json:"repo"` // the folder is in a git work tree (marks are shown)
}

// sortKey orders entries: folders (group 0) before the rest, then by the
// lower-cased name, then by the name itself so the order is total.
type sortKey struct {
	group int
	fold  string
	name  string
}

func compareKeys(a, b sortKey) int {
	return cmp.Or(cmp.Compare(a.group, b.group), strings.Compare(a.fold, b.fold), strings.Compare(a.name, b.name))
}

// cursor turns a key into the opaque text of Page.Next.
func (k sortKey) cursor() string {
	return string(rune('0'+k.group)) + k.name
}

func parseCursor(c string) (sortKey, error) {
	if len(c) < 2 || (c[0] != '0' && c[0] != '1') || strings.ContainsAny(c[1:], "/\x00") {
		return sortKey{}, wire.FieldErrorf("cursor", "is not a cursor this server gave; start again without one")
	}
	name := c[1:]
	return sortKey{group: int(c[0] - '0'), fold: strings.ToLower(name), name: name}, nil
}

// List returns the entries of the folder p after cursor ("" for the
// first page), at most limit (0: wire.FSPageDefault; capped at
// wire.FSPageMax). Only the page's entries are stat'ed; the folder's
// names are read in full to order them, which for 100,000 names costs a
// few megabytes for the length of the call.
func (t *Tree) List(ctx context.Context, p, cursor string, limit int) (Page, error) {
	p, err := Clean(p)
	if err != nil {
		return Page{}, err
	}
	limit = pageLimit(limit)
	var after *sortKey
	if cursor != "" {
		k, err := parseCursor(cursor)
		if err != nil {
			return Page{}, err
		}
		after = &k
	}
	d, err := t.openFolder(p)
	if err != nil {
		return Page{}, err
	}
	defer d.close()
	marks := t.startMarks(ctx, p) // git works while the folder is read
	des, err := d.f.ReadDir(-1)
	if err != nil {
		<-marks.done
		return Page{}, pathErr(p, err)
	}
	keys, total, more := pageKeys(des, after, limit)
	page := Page{Path: p, Total: total, Entries: make([]Entry, 0, len(keys))}
	for _, k := range keys {
		e, err := t.entry(d, k.name)
		if err != nil {
			continue // gone since the folder was read
		}
		page.Entries = append(page.Entries, e)
	}
	if more {
		page.Next = keys[len(keys)-1].cursor()
	}
	page.Repo = marks.apply(page.Entries)
	return page, nil
}

func pageLimit(n int) int {
	switch {
	case n <= 0:
		return wire.FSPageDefault
	case n > wire.FSPageMax:
		return wire.FSPageMax
	}
	return n
}

func keyOf(de fs.DirEntry) sortKey {
	g := 1
	if de.IsDir() {
		g = 0
	}
	return sortKey{group: g, fold: strings.ToLower(de.Name()), name: de.Name()}
}

// pageKeys returns the keys of the page after after (sorted, at most
// limit), how many entries the folder shows in all (.git left out) and
// whether more follow the page. It keeps only the limit smallest keys
// while it goes (a bounded max-heap), so a page of a folder of n entries
// costs n·log(limit), not a sort of all n.
func pageKeys(des []fs.DirEntry, after *sortKey, limit int) ([]sortKey, int, bool) {
	h := make(keyHeap, 0, min(limit, len(des)))
	total, more := 0, false
	for _, de := range des {
		if de.Name() == ".git" {
			continue
		}
		total++
		k := keyOf(de)
		if after != nil && compareKeys(k, *after) <= 0 {
			continue
		}
		switch {
		case len(h) < limit:
			heap.Push(&h, k)
		case compareKeys(k, h[0]) < 0:
			h[0] = k
			heap.Fix(&h, 0)
			more = true
		default:
			more = true
		}
	}
	keys := []sortKey(h)
	slices.SortFunc(keys, compareKeys)
	return keys, total, more
}

// keyHeap is a max-heap of keys: its root is the greatest, the first to
// drop when a smaller key comes.
type keyHeap []sortKey

func (h keyHeap) Len() int           { return len(h) }
func (h keyHeap) Less(i, j int) bool { return compareKeys(h[i], h[j]) > 0 }
func (h keyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)        { *h = append(*h, x.(sortKey)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// entry stats one name of d.
func (t *Tree) entry(d *folder, name string) (Entry, error) {
	st, err := d.stat(name)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Name: name, MTime: time.Unix(st.Mtim.Unix()).UTC()}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		e.Type = TypeDir
		e.Folded = name == "node_modules"
	case unix.S_IFREG:
		e.Type, e.Size, e.Exec = TypeFile, st.Size, st.Mode&0o111 != 0
	case unix.S_IFLNK:
		e.Type = TypeSymlink
		e.Target, _ = d.readlink(name)
		e.Points = t.points(join(d.path, name))
	default:
		e.Type = TypeOther
	}
	return e, nil
}

// points says where the symbolic link at p leads, resolved through the
// root (so a link out of the tree is "outside", never followed).
func (t *Tree) points(p string) string {
	fi, err := t.root.Stat(p)
	switch {
	case err != nil && strings.Contains(err.Error(), errPathEscapes):
		return "outside"
	case err != nil:
		return "broken"
	case fi.IsDir():
		return TypeDir
	case fi.Mode().IsRegular():
		return TypeFile
	}
	return TypeOther
}
