// Package gitdiff computes the live diff shown by git-diff workers: the work
// tree (committed since the base, staged, unstaged and untracked changes)
// against a base commit, as the Diff object of API.md, and watches the work
// tree for changes.
//
// Beyond API.md, a File may carry truncated (its hunks were left out
// because they are too large; ComputeFile fetches them), oldMode and newMode
// (set when a file's mode changed, e.g. "100644" to "100755"), and a Line
// may carry noEol (the line has no newline at the end of the file).
//
// All functions are safe for concurrent use. git runs through
// internal/gitrepo: no shell, no inherited GIT_* environment, no optional
// locks, so a diff never takes index.lock while the user works.
//
// "Git from the UI" lives here too (stage.go, ops.go, commit.go): the
// Stage view (HEAD → index → work tree) and the operations that change the
// index, the work tree or the remote. Those take git's locks like any git
// command, and refuse a request made against a view that changed since.
package gitdiff

import (
	"errors"
	"time"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

var (
	// ErrNotRepo means the directory is missing or not inside a git work
	// tree. It is gitrepo.ErrNotRepo, so either name matches.
	ErrNotRepo = gitrepo.ErrNotRepo
	// ErrInvalidBase means a base is not a plain commit-ish (it looks like
	// an option, a range, a path or a search) or does not name a commit.
	ErrInvalidBase = errors.New("invalid base")
	// ErrInvalidPath means a path given to ComputeFile is empty, absolute, not
	// clean, or leaves the work tree.
	ErrInvalidPath = errors.New("invalid path")
	// ErrUnchanged means ComputeFile was asked for a path that has no change
	// against the base.
	ErrUnchanged = errors.New("path has no change")
)

// Status values of a File.
const (
	StatusModified  = "modified"
	StatusAdded     = "added"
	StatusDeleted   = "deleted"
	StatusRenamed   = "renamed"
	StatusUntracked = "untracked"
)

// Diff is the work tree against Base. Head is nil while the branch has no
// commit. Files are sorted by path.
type Diff struct {
	Base  string  `json:"base"`
	Head  *string `json:"head"`
	Files []File  `json:"files"`
}

// File is one changed path. Additions and Deletions count every line even
// when Truncated leaves the hunks out; binary files count none.
type File struct {
	Path      string `json:"path"`
	OldPath   string `json:"oldPath,omitempty"`
	Status    string `json:"status"`
	Binary    bool   `json:"binary"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Hunks     []Hunk `json:"hunks"`
	Truncated bool   `json:"truncated,omitempty"`
	OldMode   string `json:"oldMode,omitempty"`
	NewMode   string `json:"newMode,omitempty"`
}

// Hunk is one @@ block. Header is the text after the closing "@@" (often
// the enclosing function), without the separating space.
type Hunk struct {
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	Header   string `json:"header"`
	Lines    []Line `json:"lines"`
}

// Line is one line of a hunk. Op is " ", "+" or "-". OldNo is set for
// context and removed lines, NewNo for context and added lines.
type Line struct {
	Op    string `json:"op"`
	Text  string `json:"text"`
	OldNo *int   `json:"oldNo,omitempty"`
	NewNo *int   `json:"newNo,omitempty"`
	NoEOL bool   `json:"noEol,omitempty"`
}

// Line operations.
const (
	OpContext = " "
	OpAdd     = "+"
	OpDelete  = "-"
)

// Options bounds the work of Compute. A nil *Options means all defaults.
// Zero fields take their default; a negative limit means no limit.
type Options struct {
	// MaxFileBytes is the size of one file's diff above which its hunks
	// are left out and it is marked Truncated. Default 256 KiB.
	MaxFileBytes int
	// MaxFileLines is the number of diff lines of one file above which it
	// is truncated. Default 5,000.
	MaxFileLines int
	// MaxFiles is how many files get hunks; later files (in git's path
	// order, tracked before untracked) are truncated. Default 5,000.
	MaxFiles int
	// MaxTotalBytes bounds the hunk bytes of the whole diff, and so its
	// memory. Default 8 MiB.
	MaxTotalBytes int
	// Timeout bounds the whole computation. Default 10 s.
	Timeout time.Duration
}

// Defaults of Options.
const (
	DefaultMaxFileBytes  = 256 << 10
	DefaultMaxFileLines  = 5000
	DefaultMaxFiles      = 5000
	DefaultMaxTotalBytes = 8 << 20
	DefaultTimeout       = 10 * time.Second
)

// maxScanBytes bounds how much of the untracked files Compute reads to
// count lines of files whose hunks are left out. Past it such files report
// zero additions.
const maxScanBytes = 64 << 20

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	def := func(v *int, d int) {
		switch {
		case *v == 0:
			*v = d
		case *v < 0:
			*v = -1
		}
	}
	def(&r.MaxFileBytes, DefaultMaxFileBytes)
	def(&r.MaxFileLines, DefaultMaxFileLines)
	def(&r.MaxFiles, DefaultMaxFiles)
	def(&r.MaxTotalBytes, DefaultMaxTotalBytes)
	if r.Timeout <= 0 {
		r.Timeout = DefaultTimeout
	}
	return r
}

// MaxShowBytes is the one limit of ComputeFile: a file whose diff is larger
// still comes back Truncated, so one "show" cannot exhaust memory.
const MaxShowBytes = 32 << 20

// unlimited are the Options of ComputeFile.
var unlimited = Options{MaxFileBytes: MaxShowBytes, MaxFileLines: -1, MaxFiles: -1, MaxTotalBytes: -1}
