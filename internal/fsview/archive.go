package fsview

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"context"
	"io"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/wire"
)

// Archive formats.
const (
	FormatZip   = "zip"
	FormatTarGz = "tar.gz"
)

// level is the compression of archives: the fastest of deflate. An
// archive is made while a person waits, and it is sent as it is made:
// level 1 keeps up with a fast network where the default level (several
// times slower on this kind of content) would make the network wait.
const level = flate.BestSpeed

// Size is what an archive of a folder holds, counted before it is made
// (files may change in between).
type Size struct {
	Files   int64 `json:"files"`
	Folders int64 `json:"folders"`
	Bytes   int64 `json:"bytes"`   // of the files, before compression
	Skipped int64 `json:"skipped"` // symbolic links and special files, left out
}

// Measure counts what Archive of the folder p would hold. It walks the
// whole folder (node_modules too): ctx bounds it.
func (t *Tree) Measure(ctx context.Context, p string) (Size, error) {
	d, err := t.archiveFolder(p)
	if err != nil {
		return Size{}, err
	}
	defer d.close()
	var s Size
	w := &walker{ctx: ctx, visit: func(_ string, _ *folder, _ string, st unix.Stat_t) error {
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			s.Folders++
		} else {
			s.Files++
			s.Bytes += st.Size
		}
		return nil
	}}
	err = w.walk(d, "", 0)
	s.Skipped = w.skipped
	return s, err
}

// ArchiveName is the file name an archive of p is offered under.
func (t *Tree) ArchiveName(p, format string) string {
	return t.archiveRoot(p) + "." + format
}

// Archive writes the folder p as a zip or tar.gz archive to out as it
// reads it: nothing is built in memory, and a slow reader slows the walk
// (out's writes block). Inside, every path starts with the folder's name.
// Folders and regular files are kept with their permissions and times;
// links, devices, FIFOs and sockets are left out, .git too.
func (t *Tree) Archive(ctx context.Context, out io.Writer, p, format string) error {
	d, err := t.archiveFolder(p)
	if err != nil {
		return err
	}
	defer d.close()
	root := t.archiveRoot(p)
	buf := make([]byte, 256<<10)
	switch format {
	case FormatZip:
		return writeZip(ctx, out, d, root, buf)
	case FormatTarGz:
		return writeTarGz(ctx, out, d, root, buf)
	}
	return wire.FieldErrorf("format", "must be zip or tar.gz, got %q", format)
}

// CheckFormat refuses an archive format other than zip and tar.gz.
func CheckFormat(format string) error {
	if format != FormatZip && format != FormatTarGz {
		return wire.FieldErrorf("format", "must be zip or tar.gz, got %q", format)
	}
	return nil
}

func (t *Tree) archiveFolder(p string) (*folder, error) {
	p, err := Clean(p)
	if err != nil {
		return nil, err
	}
	return t.openFolder(p)
}

func writeZip(ctx context.Context, out io.Writer, d *folder, root string, buf []byte) error {
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, level)
	})
	w := &walker{ctx: ctx, visit: func(rel string, d *folder, name string, st unix.Stat_t) error {
		h := &zip.FileHeader{Name: root + rel, Modified: stTime(st)}
		h.SetMode(stMode(st))
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			h.Name += "/"
			_, err := zw.CreateHeader(h)
			return err
		}
		h.Method = zip.Deflate
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		return copyFile(fw, d, name, st.Size, buf, false)
	}}
	if _, err := zw.CreateHeader(&zip.FileHeader{Name: root + "/", Modified: time.Now()}); err != nil {
		return err
	}
	if err := w.walk(d, "", 0); err != nil {
		return err
	}
	return zw.Close()
}

func writeTarGz(ctx context.Context, out io.Writer, d *folder, root string, buf []byte) error {
	gz, err := gzip.NewWriterLevel(out, level)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	w := &walker{ctx: ctx, visit: func(rel string, d *folder, name string, st unix.Stat_t) error {
		h, err := tar.FileInfoHeader(statInfo{st: st, name: name}, "")
		if err != nil {
			return err
		}
		h.Name = root + rel
		h.Uname, h.Gname = "", ""
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			h.Name += "/"
			return tw.WriteHeader(h)
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		return copyFile(tw, d, name, st.Size, buf, true)
	}}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: root + "/", Mode: 0o755, ModTime: time.Now()}); err != nil {
		return err
	}
	if err := w.walk(d, "", 0); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// copyFile copies the file name of d, size bytes as stat'ed, to w. A
// file that grew since is cut at size; one that shrank (or was replaced
// by something that is not a regular file) is padded with zeros when pad
// (a tar entry must have the size its header says).
func copyFile(w io.Writer, d *folder, name string, size int64, buf []byte, pad bool) error {
	var n int64
	f, _, err := d.openRegular(name)
	if err == nil {
		src := &readErr{r: io.LimitReader(f, size)}
		n, err = io.CopyBuffer(w, src, buf)
		_ = f.Close()
		if err != nil && err != src.err {
			return err // the writer failed: the client went away
		}
	}
	if pad && n < size {
		clear(buf)
		for n < size {
			m, err := w.Write(buf[:min(int64(len(buf)), size-n)])
			if err != nil {
				return err
			}
			n += int64(m)
		}
	}
	return nil
}

// readErr remembers the error of its reader, so that a copy can tell a
// file it failed to read (the archive goes on, the entry short or padded)
// from a writer that failed.
type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

func stTime(st unix.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }

func stMode(st unix.Stat_t) fs.FileMode {
	m := fs.FileMode(st.Mode & 0o777)
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		m |= fs.ModeDir
	}
	return m
}

// statInfo is an fs.FileInfo of a stat result, for tar.FileInfoHeader.
type statInfo struct {
	st   unix.Stat_t
	name string
}

func (s statInfo) Name() string       { return s.name }
func (s statInfo) Size() int64        { return s.st.Size }
func (s statInfo) Mode() fs.FileMode  { return stMode(s.st) }
func (s statInfo) ModTime() time.Time { return stTime(s.st) }
func (s statInfo) IsDir() bool        { return s.st.Mode&unix.S_IFMT == unix.S_IFDIR }
func (s statInfo) Sys() any           { return nil }
