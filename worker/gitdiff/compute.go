package gitdiff

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// Compute returns the diff of the work tree containing dir against baseSHA
// (a full sha from DefaultBase or ResolveBase; anything else is
// ErrInvalidBase): commits since the base, staged and unstaged changes, and
// untracked files that git does not ignore, with renames detected. The
// whole work tree is covered even when dir is a subdirectory. Files over the
// limits of opts (nil: defaults) come without hunks and with Truncated set;
// ComputeFile fetches them whole.
func Compute(ctx context.Context, dir, baseSHA string, opts *Options) (*Diff, error) {
	d, err := compute(ctx, dir, baseSHA, opts.withDefaults(), "")
	if err != nil {
		return nil, fmt.Errorf("compute diff: %w", err)
	}
	return d, nil
}

// ComputeFile returns the whole diff of one path (its new path for a rename)
// against baseSHA, without the limits of Compute other than MaxShowBytes.
// path is relative to the work tree's root, as in Diff. It fails with
// ErrInvalidPath for a path that is empty, absolute, not clean or leaves the
// tree, and ErrUnchanged when the path has no change.
func ComputeFile(ctx context.Context, dir, baseSHA, path string) (*File, error) {
	if !validPath(path) {
		return nil, fmt.Errorf("diff file %q: %w", path, ErrInvalidPath)
	}
	d, err := compute(ctx, dir, baseSHA, unlimited.withDefaults(), path)
	if err != nil {
		return nil, fmt.Errorf("diff file %q: %w", path, err)
	}
	for i := range d.Files {
		if d.Files[i].Path == path {
			return &d.Files[i], nil
		}
	}
	return nil, fmt.Errorf("diff file %q: %w", path, ErrUnchanged)
}

// compute does Compute, or ComputeFile when only is set.
func compute(ctx context.Context, dir, base string, o Options, only string) (*Diff, error) {
	if !isSHA(base) {
		return nil, fmt.Errorf("base %q: %w", base, ErrInvalidBase)
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	head, err := headSHA(ctx, top)
	if err != nil {
		return nil, err
	}
	b := newBudget(o)
	files, err := tracked(ctx, top, base, b, only)
	if err != nil {
		return nil, err
	}
	untracked, err := untrackedFiles(ctx, top, b, only)
	if err != nil {
		return nil, err
	}
	files = append(append(make([]File, 0, len(files)+len(untracked)), files...), untracked...)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return &Diff{Base: base, Head: head, Files: files}, nil
}

// tracked diffs the tracked files in one git call whose output holds the
// raw and numstat records (statuses, modes, counts) and then the patch,
// whose sections are matched to the records by their "diff --git" header.
// For ComputeFile an unrestricted --raw call comes first, to find the old
// path of a rename, and the patch is limited to those paths.
//
// -U3 pins the context (diff.context could remove it): git apply needs
// context to place a hunk that "Git from the UI" stages.
// extra goes before the base: "--cached" diffs the index against base, and
// an empty base diffs the work tree against the index (see stage.go).
func tracked(ctx context.Context, top, base string, b *budget, only string, extra ...string) ([]File, error) {
	var pathspec []string
	if only != "" {
		raw, err := gitrepo.Git(ctx, top, diffArgs(base, nil, append([]string{"--raw", "-z"}, extra...)...)...)
		if err != nil {
			return nil, missingBase(err)
		}
		changes, err := parseRawNumstat(raw)
		if err != nil {
			return nil, err
		}
		if pathspec = pathspecFor(changes, only); pathspec == nil {
			return nil, nil
		}
	}
	var changes []change
	var sections []section
	err := gitrepo.GitStream(ctx, top, func(r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		stat, err := readStat(br)
		if err != nil {
			return err
		}
		if changes, err = parseRawNumstat(stat); err != nil {
			return err
		}
		sections, err = parseUnified(br, b)
		return err
	}, diffArgs(base, pathspec, append([]string{"--raw", "--numstat", "--patch", "-U3", "-z"}, extra...)...)...)
	if err != nil {
		return nil, missingBase(err)
	}
	if only != "" {
		changes = slices.DeleteFunc(changes, func(c change) bool { return c.path != only })
	}
	return merge(changes, sections), nil
}

// missingBase marks a diff that failed because the base object is not in
// the repository (say, a sha from another clone) as ErrInvalidBase.
func missingBase(err error) error {
	var ge *gitrepo.Error
	if errors.As(err, &ge) && ge.ExitCode == 128 && strings.Contains(ge.Stderr, "bad object") {
		return fmt.Errorf("%w: %w", ErrInvalidBase, err)
	}
	return err
}

// pathspecFor returns the paths of the change to only (both sides of a
// rename), or nil when only has no change.
func pathspecFor(changes []change, only string) []string {
	for _, c := range changes {
		if c.path == only && c.oldPath != "" {
			return []string{c.path, c.oldPath}
		}
		if c.path == only {
			return []string{c.path}
		}
	}
	return nil
}

// readStat reads the NUL-terminated raw and numstat records up to the
// empty record git puts before the patch (records are never empty: a
// rename's numstat record still holds its counts).
func readStat(br *bufio.Reader) ([]byte, error) {
	var stat []byte
	for {
		tok, err := br.ReadBytes(0)
		if len(tok) == 1 || (err == io.EOF && len(tok) == 0) {
			return stat, nil
		}
		stat = append(stat, tok...)
		if err == io.EOF {
			return stat, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// diffArgs pins every diff option a user's config could change and that
// our parsers depend on. Paths, if any, are literal pathspecs. An empty
// base is left out (the work tree against the index).
func diffArgs(base string, paths []string, extra ...string) []string {
	var args []string
	if len(paths) > 0 {
		args = append(args, "--literal-pathspecs")
	}
	args = append(args, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M",
		"--src-prefix=a/", "--dst-prefix=b/", "--no-relative", "--submodule=short", "-O/dev/null")
	args = append(args, extra...)
	if base != "" {
		args = append(args, base)
	}
	args = append(args, "--")
	return append(args, paths...)
}

// merge joins the raw list with the patch sections.
func merge(changes []change, sections []section) []File {
	byHeader := make(map[string][]section, len(sections))
	for _, s := range sections {
		byHeader[s.header] = append(byHeader[s.header], s)
	}
	files := make([]File, 0, len(changes))
	for _, c := range changes {
		f := File{Path: c.path, Status: c.fileStatus(), Binary: c.binary,
			Additions: c.additions, Deletions: c.deletions, Hunks: []Hunk{}}
		if c.status == 'R' {
			f.OldPath = c.oldPath
		}
		if c.oldMode != c.newMode && c.oldMode != "000000" && c.newMode != "000000" {
			f.OldMode, f.NewMode = c.oldMode, c.newMode
		}
		secs, found := byHeader[c.header()]
		for _, s := range secs {
			f.Binary = f.Binary || s.binary
			f.Truncated = f.Truncated || s.truncated
			f.Hunks = append(f.Hunks, s.hunks...)
		}
		if f.Binary {
			f.Hunks, f.Truncated = []Hunk{}, false
		} else if !found && f.Additions+f.Deletions > 0 {
			f.Truncated = true // no patch seen: let the UI fetch it
		}
		if f.Truncated {
			f.Hunks = []Hunk{}
		}
		files = append(files, f)
	}
	return files
}

// validPath reports whether p is a clean relative path inside the tree.
func validPath(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || path.Clean(p) != p {
		return false
	}
	return p != ".." && !strings.HasPrefix(p, "../")
}
