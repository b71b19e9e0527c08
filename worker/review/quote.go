package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// Range is what a request says a comment is on.
type Range struct {
	Path      string
	Side      string
	StartLine int
	EndLine   int
}

// Check validates r's fields that need no file: a clean relative path
// inside the work tree, a known side, and line numbers in order.
func (r Range) Check() error {
	p := r.Path
	if p == "" || p == "." || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00\\") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return fieldErr("path", "must be a path inside the work tree, relative to its top, as the diff shows it")
	}
	if r.Side != SideOld && r.Side != SideNew {
		return fieldErr("side", "must be %q or %q", SideOld, SideNew)
	}
	if r.StartLine < 1 {
		return fieldErr("startLine", "must be 1 or more")
	}
	if r.EndLine < r.StartLine {
		return fieldErr("endLine", "must not be before startLine")
	}
	if r.EndLine-r.StartLine+1 > MaxRange {
		return fieldErr("endLine", "a comment quotes at most %d lines", MaxRange)
	}
	return nil
}

// Lines reads the file path on side: the work-tree file under top (new),
// or its version in commit base (old). A file that does not exist on that
// side is ErrNoFile.
func Lines(ctx context.Context, top, base, p, side string) ([]string, error) {
	var data []byte
	var err error
	if side == SideNew {
		data, err = workFile(top, p)
	} else {
		data, err = baseFile(ctx, top, base, p)
	}
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes || bytes.IndexByte(data, 0) >= 0 {
		return nil, fieldErr("path", "names a binary or very large file: comment on a text file")
	}
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, "\n"), nil
}

// workFile reads through an os.Root, so a symbolic link cannot lead out of
// the work tree.
func workFile(top, p string) ([]byte, error) {
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, fmt.Errorf("open work tree: %w", err)
	}
	defer root.Close()
	st, err := root.Stat(p)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !st.Mode().IsRegular()) {
		return nil, fmt.Errorf("%s: %w", p, ErrNoFile)
	}
	if err != nil {
		return nil, fieldErr("path", "cannot be read in the work tree")
	}
	if st.Size() > MaxFileBytes {
		return nil, fieldErr("path", "names a binary or very large file: comment on a text file")
	}
	return root.ReadFile(p)
}

// baseFile reads the blob with git cat-file (no textconv, no filters): the
// bytes the diff's old side shows.
func baseFile(ctx context.Context, top, base, p string) ([]byte, error) {
	out, err := gitrepo.Git(ctx, top, "cat-file", "blob", base+":"+p)
	if err != nil {
		if gitrepo.ExitCode(err) == 128 {
			return nil, fmt.Errorf("%s at %s: %w", p, base, ErrNoFile)
		}
		return nil, fmt.Errorf("read %s at base: %w", p, err)
	}
	return out, nil
}

// Quote checks r against the file's lines and returns the lines it covers.
func Quote(lines []string, r Range) ([]string, error) {
	if r.EndLine > len(lines) {
		return nil, fieldErr("endLine", "is past the end of the file on the %s side, which has %d lines", r.Side, len(lines))
	}
	return append([]string{}, lines[r.StartLine-1:r.EndLine]...), nil
}

// Capture validates r against the file in the work tree at top (new) or
// at commit base (old) and returns the quoted lines.
func Capture(ctx context.Context, top, base string, r Range) ([]string, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	lines, err := Lines(ctx, top, base, r.Path, r.Side)
	if errors.Is(err, ErrNoFile) {
		return nil, fieldErr("path", "does not exist on the %s side of the diff", r.Side)
	}
	if err != nil {
		return nil, err
	}
	return Quote(lines, r)
}

func isNoFile(err error) bool { return errors.Is(err, ErrNoFile) }
