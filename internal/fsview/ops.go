package fsview

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// Info is one path's entry and what git could bring back of it, for a
// confirmation before a delete.
type Info struct {
	Path string `json:"path"`
	Entry
	// Repo: the path is in a git work tree. Tracked: git's index has it
	// (or a file below it): a deleted tracked file can be restored with
	// git. Untracked: it is, or holds, a path git does not have
	// (untracked or ignored): that cannot be brought back.
	Repo      bool `json:"repo"`
	Tracked   bool `json:"tracked"`
	Untracked bool `json:"untracked"`
}

// Stat returns the entry at p (a symbolic link itself, not its target).
func (t *Tree) Stat(ctx context.Context, p string) (Info, error) {
	p, err := Clean(p)
	if err != nil {
		return Info{}, err
	}
	if p == "." {
		return Info{}, wire.FieldErrorf("path", "name an entry of the session's folder")
	}
	dir, name := split(p)
	d, err := t.openFolder(dir)
	if err != nil {
		return Info{}, err
	}
	defer d.close()
	e, err := t.entry(d, name)
	if err != nil {
		return Info{}, pathErr(p, err)
	}
	info := Info{Path: p, Entry: e}
	if tracked, err := gitrepo.Tracked(ctx, t.dir, p); err == nil {
		info.Repo, info.Tracked = true, tracked
		changes, _ := gitrepo.Status(ctx, t.dir, p)
		for _, c := range changes {
			if c.Untracked() || c.Ignored() {
				info.Untracked = true
			}
		}
		info.Git = marksOf(dir, changes).of(name)
	}
	return info, nil
}

// Mkdir makes the folder p (its parent must exist).
func (t *Tree) Mkdir(p string) error {
	d, name, err := t.parentOf(p)
	if err != nil {
		return err
	}
	defer d.close()
	if err := d.mkdir(name); err != nil {
		return pathErr(p, err)
	}
	return syncErr(d)
}

// Move renames from to to, which must not exist (it is never replaced):
// a file or a folder, within the tree.
func (t *Tree) Move(from, to string) error {
	fd, fname, err := t.parentOf(from)
	if err != nil {
		return err
	}
	defer fd.close()
	td, tname, err := t.parentOf(to)
	if err != nil {
		return err
	}
	defer td.close()
	err = fd.rename(fname, td, tname, true)
	switch {
	case errors.Is(err, unix.EINVAL):
		return wire.FieldErrorf("to", "a folder cannot be moved into itself")
	case errors.Is(err, unix.EXDEV):
		return wire.FieldErrorf("to", "%s is on another file system; copy it instead", to)
	case errors.Is(err, unix.EEXIST):
		return fmt.Errorf("%s already exists; choose another name: %w", to, wire.ErrConflict)
	case errors.Is(err, unix.ENOENT):
		if _, serr := fd.stat(fname); serr != nil {
			return pathErr(from, err)
		}
		return pathErr(to, err)
	case err != nil:
		return pathErr(from, err)
	}
	if err := syncErr(fd); err != nil {
		return err
	}
	return syncErr(td)
}

// Delete removes the file, link or folder p; a folder that is not empty
// only with recursive (else wire.ErrConflict). A symbolic link is removed
// itself, never what it points to.
func (t *Tree) Delete(p string, recursive bool) error {
	d, name, err := t.parentOf(p)
	if err != nil {
		return err
	}
	defer d.close()
	st, err := d.stat(name)
	if err != nil {
		return pathErr(p, err)
	}
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	switch {
	case isDir && recursive:
		err = t.root.RemoveAll(join(d.path, name))
	default:
		err = d.unlink(name, isDir)
	}
	if errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("the folder %s is not empty; send recursive=1 to delete it with everything in it: %w", p, wire.ErrConflict)
	}
	if err != nil {
		return pathErr(p, err)
	}
	return syncErr(d)
}

// parentOf opens the folder that holds p (not the tree itself) and
// returns it with p's name.
func (t *Tree) parentOf(p string) (*folder, string, error) {
	p, err := Clean(p)
	if err != nil {
		return nil, "", err
	}
	if p == "." {
		return nil, "", wire.FieldErrorf("path", "the session's folder itself cannot be changed here")
	}
	dir, name := split(p)
	d, err := t.openFolder(dir)
	if err != nil {
		return nil, "", err
	}
	return d, name, nil
}

func syncErr(d *folder) error {
	if err := d.sync(); err != nil {
		return fmt.Errorf("sync %s: %w", d.path, err)
	}
	return nil
}
