// Package fsview is the machinery of the Files tab: it lists, reads,
// writes, uploads, moves, deletes and archives the files of one directory
// tree and can never reach outside it. It knows nothing of sessions.
//
// Every path a caller names goes through os.Root: `..`, absolute paths
// and symbolic links that lead out of the tree (in any component, also
// one swapped in between a check and a use) are refused by the kernel's
// openat walk that os.Root does. The folder that holds the name an
// operation acts on is opened through the root, and the operation itself
// then uses that folder's descriptor with a single name (openat,
// fstatat, renameat2, unlinkat), so nothing is resolved twice. Devices,
// FIFOs and sockets are never opened: their type is checked first
// (fstatat, or Stat through the root), files are opened with O_NONBLOCK
// and O_NOFOLLOW, and the opened file is checked again with fstat.
//
// .git is hidden: a path with a .git component is refused as not found,
// listings leave it out and archives skip it.
//
// Writes are atomic: the bytes go to a temporary file in the target
// folder, which is synced, renamed over the name and followed by a sync
// of the folder. A failed write leaves no temporary file behind.
package fsview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Tree is one directory opened for the operations of one caller. It holds
// a descriptor of the directory: Close it. Its methods are safe for
// concurrent use.
type Tree struct {
	dir  string
	root *os.Root
}

// Open opens the tree at dir. A directory that no longer exists is an
// error wrapping wire.ErrConflict.
func Open(dir string) (*Tree, error) {
	r, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, fmt.Errorf("the session's folder %s no longer exists: %w", dir, wire.ErrConflict)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	return &Tree{dir: dir, root: r}, nil
}

// Close releases the tree's descriptor.
func (t *Tree) Close() error { return t.root.Close() }

// Dir is the tree's directory as given to Open.
func (t *Tree) Dir() string { return t.dir }

// Limits on a path a caller names: Linux's PATH_MAX and NAME_MAX.
const (
	maxPath = 4096
	maxName = 255
)

// Clean checks a path a caller sent and returns it in the form the tree
// uses: relative, with `/`, "." for the tree itself ("" is taken as ".").
// It refuses absolute paths, `..`, empty or `.` components (the path must
// already be clean), NUL, names longer than 255 bytes and any .git
// component, with an error wrapping wire.ErrInvalid (or wire.ErrNotFound
// for .git, which is hidden).
func Clean(p string) (string, error) {
	if p == "" || p == "." {
		return ".", nil
	}
	switch {
	case len(p) > maxPath:
		return "", wire.FieldErrorf("path", "is longer than %d bytes", maxPath)
	case strings.IndexByte(p, 0) >= 0:
		return "", wire.FieldErrorf("path", "contains a NUL byte")
	case strings.HasPrefix(p, "/"):
		return "", wire.FieldErrorf("path", "must be relative to the session's folder, not absolute")
	}
	for part := range strings.SplitSeq(p, "/") {
		switch {
		case part == "" || part == ".":
			return "", wire.FieldErrorf("path", "%q is not a clean path: remove empty and \".\" parts and the trailing slash", p)
		case part == "..":
			return "", wire.FieldErrorf("path", "must not contain \"..\": only files inside the session's folder can be reached")
		case part == ".git":
			return "", fmt.Errorf("%s: .git is hidden: %w", p, wire.ErrNotFound)
		case len(part) > maxName:
			return "", wire.FieldErrorf("path", "has a name longer than %d bytes", maxName)
		}
	}
	return p, nil
}

// checkName checks one name of a folder entry (an upload's file name, the
// last part of a path): the rules of Clean, and no slash.
func checkName(field, name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return wire.FieldErrorf(field, "%q is not a file name", name)
	case strings.ContainsAny(name, "/\x00"):
		return wire.FieldErrorf(field, "%q must be a plain name without / or NUL", name)
	case len(name) > maxName:
		return wire.FieldErrorf(field, "is longer than %d bytes", maxName)
	case name == ".git":
		return wire.FieldErrorf(field, ".git is reserved for git and hidden here")
	}
	return nil
}

// split returns the folder and the name of a clean path other than ".".
func split(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ".", p
	}
	return p[:i], p[i+1:]
}

// join joins a clean folder path and a name.
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// errPathEscapes is how os.Root words a path that leads out of the root
// (its sentinel is not exported); matching the text is the only way.
const errPathEscapes = "path escapes from parent"

// pathErr turns an error of an operation on p into one the edge maps to a
// clear answer: not found, outside the tree, not a folder, exists, not
// empty, permission denied. Disk-full and read-only errors keep their
// errno (the edge answers them as storage errors); the rest are wrapped.
func pathErr(p string, err error) error {
	switch {
	case err == nil:
		return nil
	case strings.Contains(err.Error(), errPathEscapes):
		return &wire.CodeError{Code: wire.CodeForbidden, Err: fmt.Errorf("%s leads outside the session's folder (through a symbolic link or a mount); it cannot be opened here", p)}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s does not exist: %w", p, wire.ErrNotFound)
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s already exists: %w", p, wire.ErrConflict)
	case errors.Is(err, syscall.ENOTEMPTY):
		return fmt.Errorf("the folder %s is not empty: %w", p, wire.ErrConflict)
	case errors.Is(err, syscall.ELOOP):
		return wire.FieldErrorf("path", "%s goes through too many symbolic links", p)
	case errors.Is(err, fs.ErrPermission):
		return &wire.CodeError{Code: wire.CodeForbidden, Err: fmt.Errorf("permission denied: agentdesk may not access %s", p)}
	}
	return fmt.Errorf("%s: %w", p, err)
}

// Free is the space left for an unprivileged writer on the tree's file
// system, in bytes.
func (t *Tree) Free() (int64, error) {
	f, err := t.root.Open(".")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", t.dir, err)
	}
	return int64(st.Bavail) * st.Bsize, nil
}
