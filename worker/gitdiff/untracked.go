package gitdiff

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// binarySniff is how much of a file git looks at for a NUL byte to call it
// binary; we use the same rule for untracked files.
const binarySniff = 8000

// untrackedFiles lists the untracked, not ignored files (only that path
// when only is set) and turns each into an all-additions File.
func untrackedFiles(ctx context.Context, top string, b *budget, only string) ([]File, error) {
	args := []string{"ls-files", "--others", "--exclude-standard", "-z"}
	if only != "" {
		args = append(append([]string{"--literal-pathspecs"}, args...), "--", only)
	}
	out, err := gitrepo.Git(ctx, top, args...)
	if err != nil {
		return nil, err
	}
	paths := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(out) == 0 {
		return nil, nil
	}
	// os.Root keeps reads inside the tree even if a path component is
	// swapped for a symlink after git listed it.
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, fmt.Errorf("open work tree: %w", err)
	}
	defer root.Close()
	files := make([]File, 0, len(paths))
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("read untracked files: %w", err)
		}
		if f, ok := readUntracked(root, p, b); ok {
			files = append(files, f)
		}
	}
	return files, nil
}

// readUntracked builds the File of one untracked path; ok is false when
// the path vanished since git listed it.
func readUntracked(root *os.Root, p string, b *budget) (f File, ok bool) {
	f = File{Path: p, Status: StatusUntracked, Hunks: []Hunk{}}
	name := strings.TrimSuffix(p, "/") // a nested repository is listed as "dir/"
	fi, err := root.Lstat(name)
	if err != nil {
		return f, false
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := root.Readlink(name)
		if err != nil {
			return f, false
		}
		fill(&f, []byte(target), b) // git diffs a symlink as its target
		return f, true
	case !fi.Mode().IsRegular():
		return f, true
	}
	size := int(fi.Size())
	if b.admit() && b.fits(size, 0) {
		data, err := readFile(root, name, b.fileBytes)
		if err != nil {
			return f, false
		}
		if within(len(data), b.fileBytes) {
			fill(&f, data, b)
			return f, true
		}
	}
	f.Truncated = true
	if size <= b.scan {
		b.scan -= size
		f.Additions, f.Binary = countLines(root, name)
	}
	return f, true
}

// fill sets the hunk, additions and binary flag of f from content.
func fill(f *File, data []byte, b *budget) {
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		f.Binary = true
		return
	}
	if len(data) == 0 {
		return
	}
	text := string(data)
	noEOL := !strings.HasSuffix(text, "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	f.Additions = len(lines)
	if !b.admit() || !b.fits(len(data), len(lines)) {
		f.Truncated = true
		return
	}
	b.spend(len(data))
	h := Hunk{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: len(lines), Lines: make([]Line, len(lines))}
	nums := make([]int, len(lines))
	for i, l := range lines {
		nums[i] = i + 1
		h.Lines[i] = Line{Op: OpAdd, Text: l, NewNo: &nums[i]}
	}
	h.Lines[len(lines)-1].NoEOL = noEOL
	f.Hunks = []Hunk{h}
}

// readFile reads name, at most limit+1 bytes when limit >= 0 (the file
// may have grown since it was measured).
func readFile(root *os.Root, name string, limit int) ([]byte, error) {
	fh, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var r io.Reader = fh
	if limit >= 0 {
		r = io.LimitReader(fh, int64(limit)+1)
	}
	return io.ReadAll(r)
}

// countLines counts the lines of name as git's numstat would: zero for a
// binary file, a last line without newline counts.
func countLines(root *os.Root, name string) (lines int, binary bool) {
	fh, err := root.Open(name)
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	buf := make([]byte, 64<<10)
	var read int
	var last byte
	for {
		n, err := fh.Read(buf)
		if read < binarySniff && bytes.IndexByte(buf[:min(n, binarySniff-read)], 0) >= 0 {
			return 0, true
		}
		lines += bytes.Count(buf[:n], []byte("\n"))
		if n > 0 {
			last = buf[n-1]
		}
		read += n
		if err != nil {
			break
		}
	}
	if read > 0 && last != '\n' {
		lines++
	}
	return lines, false
}
