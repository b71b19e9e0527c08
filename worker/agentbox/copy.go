package agentbox

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// copyNewer copies the regular file src to dst (mode 0600, its directory
// 0700) when src exists and dst is missing or older.
func copyNewer(src, dst string) error {
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
	tmp := dst + ".agentdesk-tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
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
