package fsview

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// folder is an open directory of the tree. Operations on its entries use
// its descriptor and one name, so a symbolic link swapped into the path
// after the folder was opened changes nothing.
type folder struct {
	f    *os.File
	fd   int
	path string // clean path in the tree
}

// openFolder opens the folder p through the root: it refuses paths that
// lead outside, and a FIFO swapped in is not waited on (O_NONBLOCK) but
// refused (O_DIRECTORY).
func (t *Tree) openFolder(p string) (*folder, error) {
	f, err := t.root.OpenFile(p, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ENOTDIR) {
		if _, serr := t.root.Lstat(p); serr == nil {
			return nil, wire.FieldErrorf("path", "%s is not a folder", p)
		}
	}
	if err != nil {
		return nil, pathErr(p, err)
	}
	return &folder{f: f, fd: int(f.Fd()), path: p}, nil
}

func (d *folder) close() { _ = d.f.Close() }

// stat is lstat of one entry.
func (d *folder) stat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	return st, err
}

// openDir opens a sub-folder; a symbolic link is refused (ELOOP).
func (d *folder) openDir(name string) (*folder, error) {
	fd, err := openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	p := join(d.path, name)
	f := os.NewFile(uintptr(fd), p)
	return &folder{f: f, fd: fd, path: p}, nil
}

// openRegular opens a regular file for reading. The open does not follow
// a symbolic link and does not wait on a FIFO; whatever it opened is
// checked with fstat, and anything but a regular file is refused.
func (d *folder) openRegular(name string) (*os.File, unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, st, err
	}
	p := join(d.path, name)
	return checkRegular(os.NewFile(uintptr(fd), p), p)
}

// checkRegular checks an opened file with fstat: a regular file comes
// back in blocking mode (Fd clears O_NONBLOCK); anything else is closed
// and refused.
func checkRegular(f *os.File, p string) (*os.File, unix.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		_ = f.Close()
		return nil, st, fmt.Errorf("stat %s: %w", p, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		_ = f.Close()
		return nil, st, notRegular(p, st.Mode)
	}
	return f, st, nil
}

// create makes a new file that did not exist (O_EXCL), for writing.
func (d *folder) create(name string, perm uint32) (*os.File, error) {
	fd, err := openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), join(d.path, name)), nil
}

// rename moves an entry to another folder (or this one). With noReplace
// an existing target is refused (EEXIST) atomically.
func (d *folder) rename(name string, to *folder, toName string, noReplace bool) error {
	var flags uint
	if noReplace {
		flags = unix.RENAME_NOREPLACE
	}
	return ignoringEINTR(func() error { return unix.Renameat2(d.fd, name, to.fd, toName, flags) })
}

func (d *folder) unlink(name string, dir bool) error {
	var flags int
	if dir {
		flags = unix.AT_REMOVEDIR
	}
	return ignoringEINTR(func() error { return unix.Unlinkat(d.fd, name, flags) })
}

func (d *folder) mkdir(name string) error {
	return ignoringEINTR(func() error { return unix.Mkdirat(d.fd, name, 0o777) })
}

// sync makes the folder's entries durable (a rename, a new name).
func (d *folder) sync() error { return d.f.Sync() }

func (d *folder) readlink(name string) (string, error) {
	buf := make([]byte, maxPath)
	n, err := unix.Readlinkat(d.fd, name, buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

func openat(dirfd int, name string, flags int, perm uint32) (int, error) {
	var fd int
	err := ignoringEINTR(func() error {
		var err error
		fd, err = unix.Openat(dirfd, name, flags, perm)
		return err
	})
	return fd, err
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// notRegular is the refusal of a device, FIFO, socket or folder where a
// file was asked for.
func notRegular(p string, mode uint32) error {
	return wire.FieldErrorf("path", "%s is %s, not a regular file; only regular files are opened", p, typeWords(mode))
}

func typeWords(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return "a folder"
	case unix.S_IFIFO:
		return "a named pipe (FIFO)"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR, unix.S_IFBLK:
		return "a device"
	case unix.S_IFLNK:
		return "a symbolic link"
	}
	return fmt.Sprintf("a special file (mode %o)", mode&unix.S_IFMT)
}

// Folder checks that p names a folder of the tree, reached without
// leaving it, and returns p in its clean form.
func (t *Tree) Folder(p string) (string, error) {
	p, err := Clean(p)
	if err != nil {
		return "", err
	}
	d, err := t.openFolder(p)
	if err != nil {
		return "", err
	}
	d.close()
	return p, nil
}
