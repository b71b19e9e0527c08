package fsview

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Saved is what a write left on disk.
type Saved struct {
	Path  string    `json:"path"`
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
	ETag  string    `json:"etag,omitempty"` // empty for a file over wire.FSEditBytes
}

// Save replaces the file p with the bytes of r (at most wire.FSEditBytes)
// atomically: a temporary file in the same folder gets the bytes and the
// old file's permissions, is synced and renamed over p, and the folder is
// synced, so a 2xx means the bytes are on disk and a failure (a full
// disk) leaves p as it was and no temporary file.
//
// ifMatch is the ETag the caller read: when p changed since (or was
// deleted), Save fails with wire.ErrStale and writes nothing. With
// create, p must not exist (ifMatch is ignored) and the new file gets the
// default permissions under the umask.
func (t *Tree) Save(p string, r io.Reader, ifMatch string, create bool) (Saved, error) {
	p, err := Clean(p)
	if err != nil {
		return Saved{}, err
	}
	if p == "." {
		return Saved{}, wire.FieldErrorf("path", "name a file, not the session's folder")
	}
	dir, name := split(p)
	d, err := t.openFolder(dir)
	if err != nil {
		return Saved{}, err
	}
	defer d.close()
	perm := uint32(0o666) // the umask applies
	if !create {
		cur, err := currentETag(d, name)
		if err != nil {
			return Saved{}, err
		}
		if cur.etag != ifMatch {
			return Saved{}, fmt.Errorf("%s changed on disk since it was opened: %w", p, wire.ErrStale)
		}
		perm = cur.perm
	}
	tmp, err := writeTemp(d, r, wire.FSEditBytes, perm, !create)
	if err != nil {
		return Saved{}, err
	}
	return tmp.commit(d, name, create, ifMatch)
}

// version is what Save checks of the file it replaces.
type version struct {
	etag string
	perm uint32
}

// currentETag identifies the file name of d now, as Open would.
func currentETag(d *folder, name string) (version, error) {
	p := join(d.path, name)
	st, err := d.stat(name)
	if errors.Is(err, unix.ENOENT) {
		return version{}, fmt.Errorf("%s was deleted since it was opened: %w", p, wire.ErrStale)
	}
	if err != nil {
		return version{}, pathErr(p, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return version{}, wire.FieldErrorf("path", "%s is a symbolic link; open the file it points to and save that", p)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return version{}, notRegular(p, st.Mode)
	}
	f, st, err := d.openRegular(name)
	if err != nil {
		return version{}, pathErr(p, err)
	}
	defer f.Close()
	file := &File{File: f, Path: p}
	if err := file.identify(st); err != nil {
		return version{}, err
	}
	return version{etag: file.ETag, perm: st.Mode & 0o7777}, nil
}

// temp is a written, synced temporary file waiting to be renamed.
type temp struct {
	d     *folder
	name  string
	final string // the name it gets (uploads)
	size  int64
	sum   []byte
	mt    time.Time
}

// tempName is a fresh hidden name: short, so that it fits beside a name
// of 255 bytes.
func tempName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return ".agentdesk-" + hex.EncodeToString(b[:]) + ".tmp"
}

// writeTemp copies r (at most max bytes) to a new temporary file of d,
// syncs it and gives it perm (chmod only when keep: a new file keeps what
// the umask made of perm). On any error the temporary file is removed.
func writeTemp(d *folder, r io.Reader, max int64, perm uint32, keep bool) (tmp *temp, err error) {
	name := tempName()
	f, err := d.create(name, perm&0o777)
	if err != nil {
		return nil, pathErr(join(d.path, name), err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = d.unlink(name, false)
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", join(d.path, name), err)
	}
	if n > max {
		return nil, &wire.CodeError{Code: wire.CodeTooLarge, Err: fmt.Errorf("the file is larger than %d MiB", max>>20)}
	}
	if keep {
		if err := f.Chmod(os.FileMode(perm & 0o777)); err != nil {
			return nil, fmt.Errorf("keep the mode of %s: %w", d.path, err)
		}
	}
	return finishTemp(d, name, f, n, h)
}

func finishTemp(d *folder, name string, f *os.File, n int64, h hash.Hash) (*temp, error) {
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("sync %s: %w", join(d.path, name), err)
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", join(d.path, name), err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("close %s: %w", join(d.path, name), err)
	}
	return &temp{d: d, name: name, size: n, sum: h.Sum(nil), mt: fi.ModTime().UTC()}, nil
}

// remove deletes the temporary file.
func (tp *temp) remove() { _ = tp.d.unlink(tp.name, false) }

// commit renames the temporary file to name. For a replace, the file is
// checked once more against ifMatch right before the rename, which keeps
// the window for a lost update as short as the rename. On success the
// folder is synced.
func (tp *temp) commit(d *folder, name string, create bool, ifMatch string) (Saved, error) {
	p := join(d.path, name)
	if !create {
		cur, err := currentETag(d, name)
		if err == nil && cur.etag != ifMatch {
			err = fmt.Errorf("%s changed on disk while it was being saved: %w", p, wire.ErrStale)
		}
		if err != nil {
			tp.remove()
			return Saved{}, err
		}
	}
	if err := tp.d.rename(tp.name, d, name, create); err != nil {
		tp.remove()
		if create && errors.Is(err, unix.EEXIST) {
			return Saved{}, fmt.Errorf("%s already exists: %w", p, wire.ErrStale)
		}
		return Saved{}, pathErr(p, err)
	}
	if err := d.sync(); err != nil {
		return Saved{}, fmt.Errorf("sync folder of %s: %w", p, err)
	}
	return Saved{Path: p, Size: tp.size, MTime: tp.mt, ETag: tp.etag()}, nil
}

// etag is the ETag Open gives the written bytes.
func (tp *temp) etag() string {
	if tp.size > wire.FSEditBytes {
		return "" // not a content ETag; Open names it by metadata
	}
	return `"c-` + hex.EncodeToString(tp.sum[:16]) + `"`
}
