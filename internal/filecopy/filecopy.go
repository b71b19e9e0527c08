// Package filecopy copies a file of the user's into a directory of
// agentdesk's (an agent's per-session config), only when the user's copy
// is newer, so that what the agent wrote there itself is kept.
package filecopy

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Newer copies the regular file src to dst (mode 0600, its directory
// 0700, its modification time src's) when src exists and dst is missing
// or older. A missing src, or one that is not a regular file, copies
// nothing and is no error. The copy is written beside dst and renamed
// over it, so dst is never half written, also when copies run at once. src is only read.
func Newer(src, dst string) error {
	si, err := os.Stat(src)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !si.Mode().IsRegular()) {
		return nil
	}
	if err != nil {
		return err
	}
	if di, err := os.Stat(dst); err == nil && !di.ModTime().Before(si.ModTime()) {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	// A name of its own (mode 0600): copies to the same dst at once (two
	// chats of a session starting together) each rename a whole file.
	out, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".agentdesk-*")
	if err != nil {
		return err
	}
	tmp := out.Name()
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chtimes(tmp, si.ModTime(), si.ModTime()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
