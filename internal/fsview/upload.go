package fsview

import (
	"cmp"
	"errors"
	"fmt"
	"io"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Upload puts files into one folder, all or none: Add streams each file
// to a temporary file beside its final name, Commit renames them all in,
// Abort removes the temporary files. An Upload is used by one goroutine;
// call Abort when Commit was not reached (it does nothing after Commit).
type Upload struct {
	d       *folder
	replace bool
	o       UploadOptions
	temps   []*temp
	names   map[string]bool
	total   int64
	done    bool
}

// UploadOptions bound an upload. Zero fields take the wire limits:
// wire.FSUploadFile bytes a file, wire.FSUploadRequest bytes in all,
// wire.FSUploadFiles files.
type UploadOptions struct {
	// Replace lets a file replace one of the same name (keeping its
	// permissions); without it, an existing name fails Add (and Commit,
	// should one appear meanwhile) with wire.ErrConflict.
	Replace  bool
	MaxFile  int64
	MaxTotal int64
	MaxFiles int
}

// StartUpload opens the folder dir for an upload.
func (t *Tree) StartUpload(dir string, o UploadOptions) (*Upload, error) {
	dir, err := Clean(dir)
	if err != nil {
		return nil, err
	}
	d, err := t.openFolder(dir)
	if err != nil {
		return nil, err
	}
	o.MaxFile = cmp.Or(o.MaxFile, wire.FSUploadFile)
	o.MaxTotal = cmp.Or(o.MaxTotal, wire.FSUploadRequest)
	o.MaxFiles = cmp.Or(o.MaxFiles, wire.FSUploadFiles)
	return &Upload{d: d, replace: o.Replace, o: o, names: map[string]bool{}}, nil
}

// Add writes one file. It refuses a name that is not a plain file name,
// a name given twice, and a file past the options' limits (413
// too_large); the caller then Aborts.
func (u *Upload) Add(name string, r io.Reader) error {
	if err := checkName("name", name); err != nil {
		return err
	}
	p := join(u.d.path, name)
	switch {
	case u.names[name]:
		return wire.FieldErrorf("name", "%s is sent twice in one upload", name)
	case len(u.temps) >= u.o.MaxFiles:
		return &wire.CodeError{Code: wire.CodeTooLarge, Err: fmt.Errorf("an upload carries at most %d files", u.o.MaxFiles)}
	}
	perm, keep, err := u.target(name)
	if err != nil {
		return err
	}
	max := min(u.o.MaxFile, u.o.MaxTotal-u.total)
	tmp, err := writeTemp(u.d, r, max, perm, keep)
	if err != nil {
		var ce *wire.CodeError
		if errors.As(err, &ce) && ce.Code == wire.CodeTooLarge {
			return &wire.CodeError{Code: wire.CodeTooLarge, Err: fmt.Errorf("%s is too large: a file may have at most %s and an upload %s", p, mib(u.o.MaxFile), mib(u.o.MaxTotal))}
		}
		return err
	}
	u.names[name] = true
	u.temps = append(u.temps, tmp)
	u.total += tmp.size
	tmp.final = name
	return nil
}

// target checks what name is now: nothing, or (with replace) a file whose
// permissions the new one keeps.
func (u *Upload) target(name string) (perm uint32, keep bool, err error) {
	p := join(u.d.path, name)
	st, err := u.d.stat(name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return 0o666, false, nil
	case err != nil:
		return 0, false, pathErr(p, err)
	case !u.replace:
		return 0, false, fmt.Errorf("%s already exists; send replace=1 to replace it: %w", p, wire.ErrConflict)
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return 0, false, fmt.Errorf("%s is a folder; a file cannot replace it: %w", p, wire.ErrConflict)
	case st.Mode&unix.S_IFMT == unix.S_IFREG:
		return st.Mode & 0o777, true, nil
	}
	return 0o666, false, nil // a link or special file: the entry is replaced, nothing is opened
}

// Commit renames every file in and syncs the folder. Without replace, a
// name that appeared since Add undoes the files already moved in and
// fails with wire.ErrConflict.
func (u *Upload) Commit() ([]Saved, error) {
	if len(u.temps) == 0 {
		return nil, wire.FieldErrorf("files", "the upload carries no file")
	}
	out := make([]Saved, 0, len(u.temps))
	for i, tp := range u.temps {
		if err := tp.d.rename(tp.name, u.d, tp.final, !u.replace); err != nil {
			u.undo(i)
			if errors.Is(err, unix.EEXIST) {
				err = fmt.Errorf("%s appeared during the upload: %w", join(u.d.path, tp.final), wire.ErrConflict)
			}
			return nil, pathErr(join(u.d.path, tp.final), err)
		}
		out = append(out, Saved{Path: join(u.d.path, tp.final), Size: tp.size, MTime: tp.mt, ETag: tp.etag()})
	}
	u.done = true
	defer u.d.close()
	if err := u.d.sync(); err != nil {
		return nil, fmt.Errorf("sync %s: %w", u.d.path, err)
	}
	return out, nil
}

// undo removes the temporary files left after the i-th rename failed and,
// without replace (the files moved in were all new names), the files
// moved in before it. A replaced file cannot be brought back: it stays.
func (u *Upload) undo(i int) {
	if !u.replace {
		for _, tp := range u.temps[:i] {
			_ = u.d.unlink(tp.final, false)
		}
	}
	for _, tp := range u.temps[i:] {
		tp.remove()
	}
	u.temps = nil
}

// Abort removes the temporary files of an upload that is not committed.
func (u *Upload) Abort() {
	if u.done {
		return
	}
	u.done = true
	for _, tp := range u.temps {
		tp.remove()
	}
	u.d.close()
}

// mib writes a limit for people: MiB, or bytes when smaller.
func mib(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
