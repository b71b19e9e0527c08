package fsview

import (
	"context"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// maxDepth bounds how deep a walk goes; deeper folders are skipped.
const maxDepth = 256

// walker visits what an archive of a folder holds: folders and regular
// files, in name order, never following a symbolic link, never entering
// .git, and only counting links, devices, FIFOs and sockets as skipped.
type walker struct {
	ctx     context.Context
	skipped int64
	// visit gets each folder (st of a folder) and regular file by its
	// path relative to the walked folder, with the folder that holds it.
	visit func(rel string, d *folder, name string, st unix.Stat_t) error
}

// walk visits everything below the open folder d, whose path in the
// archive is rel.
func (w *walker) walk(d *folder, rel string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	names, err := d.f.Readdirnames(-1)
	if err != nil {
		return pathErr(d.path, err)
	}
	slices.Sort(names)
	for _, name := range names {
		if name == ".git" {
			continue
		}
		if err := w.one(d, rel, name, depth); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) one(d *folder, rel, name string, depth int) error {
	st, err := d.stat(name)
	if err != nil {
		return nil // gone since the folder was read
	}
	sub := rel + "/" + name
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return w.visit(sub, d, name, st)
	case unix.S_IFDIR:
		if depth >= maxDepth {
			w.skipped++
			return nil
		}
		if err := w.visit(sub, d, name, st); err != nil {
			return err
		}
		child, err := d.openDir(name)
		if err != nil {
			w.skipped++ // replaced by a link or removed since the stat
			return nil
		}
		defer child.close()
		return w.walk(child, sub, depth+1)
	}
	w.skipped++
	return nil
}

// archiveRoot is the name of the top folder inside an archive of p.
func (t *Tree) archiveRoot(p string) string {
	if p != "." {
		_, name := split(p)
		return name
	}
	name := t.dir[strings.LastIndexByte(t.dir, '/')+1:]
	if name == "" {
		return "files"
	}
	return name
}
