package fsview

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// File is a regular file of the tree opened for reading, positioned at
// its start. Close it.
type File struct {
	*os.File
	Path  string
	Size  int64
	MTime time.Time
	Mode  fs.FileMode // permission bits
	// ETag identifies this version of the file (a quoted strong ETag).
	// For a file of at most wire.FSEditBytes it is a hash of Data, the
	// bytes read; for a larger one it is made of the inode, size and
	// modification time, and Data is nil.
	ETag string
	Data []byte
}

// Open opens the regular file p for reading. The path is resolved
// through the root (a symbolic link inside the tree is followed, one
// that leads out is refused); a folder, device, FIFO or socket is refused
// before anything is opened, and what was opened is checked again.
func (t *Tree) Open(p string) (*File, error) {
	p, err := Clean(p)
	if err != nil {
		return nil, err
	}
	if p == "." {
		return nil, wire.FieldErrorf("path", "the session's folder is a folder, not a file")
	}
	fi, err := t.root.Stat(p)
	if err != nil {
		return nil, pathErr(p, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(p, modeType(fi.Mode()))
	}
	f, err := t.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, pathErr(p, err)
	}
	rf, st, err := checkRegular(f, p)
	if err != nil {
		return nil, err
	}
	file := &File{File: rf, Path: p, Size: st.Size, MTime: mtime(st), Mode: fs.FileMode(st.Mode & 0o777)}
	if err := file.identify(st); err != nil {
		_ = rf.Close()
		return nil, err
	}
	return file, nil
}

// Content returns the Content-Type the file is served with (Sniff of its
// first bytes) and a reader of all of it from its start: the bytes already
// read for a small file (those its ETag names), the file otherwise.
func (f *File) Content() (string, io.ReadSeeker, error) {
	head, err := f.head(sniffBytes)
	if err != nil {
		return "", nil, err
	}
	_, ctype := Sniff(f.Path, head)
	if f.Data != nil {
		return ctype, bytes.NewReader(f.Data), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	return ctype, f.File, nil
}

// identify reads a small file whole and hashes it, or names a large one
// by its metadata.
func (f *File) identify(st unix.Stat_t) error {
	if st.Size > wire.FSEditBytes {
		f.ETag = metaETag(st)
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f.File, wire.FSEditBytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Path, err)
	}
	if len(data) > wire.FSEditBytes { // it grew while we read
		f.ETag = metaETag(st)
		_, err = f.Seek(0, io.SeekStart)
		return err
	}
	f.Data, f.Size, f.ETag = data, int64(len(data)), contentETag(data)
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// contentETag names content by its SHA-256 (the first 128 bits): a
// change that keeps size and timestamp (two writes in one clock tick) is
// still a change.
func contentETag(data []byte) string {
	sum := sha256.Sum256(data)
	return `"c-` + hex.EncodeToString(sum[:16]) + `"`
}

func metaETag(st unix.Stat_t) string {
	return `"m-` + strconv.FormatUint(st.Ino, 16) + "-" + strconv.FormatInt(st.Size, 10) + "-" +
		strconv.FormatInt(st.Mtim.Nano(), 10) + `"`
}

func mtime(st unix.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()).UTC() }

// modeType maps an fs.FileMode's type to the S_IFMT bits notRegular
// describes.
func modeType(m fs.FileMode) uint32 {
	switch {
	case m.IsDir():
		return unix.S_IFDIR
	case m&fs.ModeNamedPipe != 0:
		return unix.S_IFIFO
	case m&fs.ModeSocket != 0:
		return unix.S_IFSOCK
	case m&fs.ModeDevice != 0:
		return unix.S_IFBLK
	case m&fs.ModeSymlink != 0:
		return unix.S_IFLNK
	}
	return 0
}
