package gitdiff

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// Stage is what "Git from the UI" shows: the changes a commit would record
// (Staged: HEAD against the index) and the ones it would not (Unstaged: the
// index against the work tree, then untracked files), with the branch and
// the remote a push would go to.
type Stage struct {
	Branch   *string     `json:"branch"`   // nil when HEAD is detached
	Head     *string     `json:"head"`     // nil before the first commit
	Remote   *string     `json:"remote"`   // where Push goes; nil: no remote
	Upstream *string     `json:"upstream"` // e.g. "origin/main"; nil when unset
	Staged   []IndexFile `json:"staged"`
	Unstaged []IndexFile `json:"unstaged"`
}

// IndexFile is a File of one side of the index with what a request needs to
// prove it acts on what the person saw: Hash fingerprints the file's change
// and HunkIDs (one per hunk, in order) name its hunks by their content.
type IndexFile struct {
	File
	Hash    string   `json:"hash"`
	HunkIDs []string `json:"hunkIds"`
}

// Sides of the index.
const (
	SideStaged   = "staged"
	SideUnstaged = "unstaged"
)

// stageOptions bounds the status view like the live diff. Hunk operations
// recompute one file with ComputeFile's limits instead.
var stageOptions = (*Options)(nil)

// ComputeStage returns the Stage of the work tree containing dir.
func ComputeStage(ctx context.Context, dir string) (*Stage, error) {
	o := stageOptions.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	st := &Stage{Staged: []IndexFile{}, Unstaged: []IndexFile{}}
	if st.Head, err = headSHA(ctx, top); err != nil {
		return nil, err
	}
	if err := branchInfo(ctx, top, st); err != nil {
		return nil, err
	}
	staged, err := side(ctx, top, SideStaged, newBudget(o), "")
	if err != nil {
		return nil, err
	}
	unstaged, err := side(ctx, top, SideUnstaged, newBudget(o), "")
	if err != nil {
		return nil, err
	}
	st.Staged, st.Unstaged = stageFiles(top, staged), stageFiles(top, unstaged)
	return st, nil
}

// side diffs one side of the index (only that path when only is set):
// staged is the index against HEAD (the empty tree before the first
// commit); unstaged is the work tree against the index, then untracked
// files.
func side(ctx context.Context, top, which string, b *budget, only string) ([]File, error) {
	if which == SideStaged {
		base, err := headOrEmpty(ctx, top)
		if err != nil {
			return nil, err
		}
		return tracked(ctx, top, base, b, only, "--cached")
	}
	files, err := tracked(ctx, top, "", b, only)
	if err != nil {
		return nil, err
	}
	untracked, err := untrackedFiles(ctx, top, b, only)
	if err != nil {
		return nil, err
	}
	files = append(files, untracked...)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

func headOrEmpty(ctx context.Context, top string) (string, error) {
	head, err := headSHA(ctx, top)
	if err != nil {
		return "", err
	}
	if head != nil {
		return *head, nil
	}
	return emptyTree(ctx, top)
}

func stageFiles(top string, files []File) []IndexFile {
	// os.Root keeps the Lstat of fingerprint inside the tree.
	root, err := os.OpenRoot(top)
	if err == nil {
		defer root.Close()
	}
	out := make([]IndexFile, 0, len(files))
	for _, f := range files {
		ids := make([]string, len(f.Hunks))
		for i := range f.Hunks {
			ids[i] = hunkID(f.Path, &f.Hunks[i])
		}
		out = append(out, IndexFile{File: f, Hash: fingerprint(root, f), HunkIDs: ids})
	}
	return out
}

// fingerprint names the state of a file's change without its hunks (which
// a truncated view leaves out): its status, counts and modes, and the work
// tree file's size, mode and modification time. An edit, a git add or a
// checkout by someone else changes it.
// A nil root (the tree could not be opened) leaves the work tree out.
func fingerprint(root *os.Root, f File) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %s %t %d %d %s %s\n", f.Path, f.OldPath, f.Status, f.Binary, f.Additions, f.Deletions, f.OldMode, f.NewMode)
	if root != nil {
		if fi, err := root.Lstat(strings.TrimSuffix(f.Path, "/")); err == nil {
			fmt.Fprintf(h, "%d %v %d\n", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// hunkID names a hunk by its path, position and every line, so a hunk that
// moved or changed gets a new id.
func hunkID(path string, h *Hunk) string {
	sum := sha256.Sum256([]byte(path + "\x00" + hunkPatch(h)))
	return hex.EncodeToString(sum[:12])
}

// hunkPatch is the hunk as git apply reads it.
func hunkPatch(h *Hunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
	for _, l := range h.Lines {
		b.WriteString(l.Op)
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if l.NoEOL {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
	return b.String()
}

// branchInfo fills the branch, its upstream and the remote a push uses:
// the branch's configured remote, else "origin", else the only remote.
func branchInfo(ctx context.Context, top string, st *Stage) error {
	if b, err := gitrepo.CurrentBranch(ctx, top); err == nil && b != "" {
		st.Branch = &b
	}
	out, err := gitrepo.Git(ctx, top, "remote")
	if err != nil {
		return fmt.Errorf("list remotes: %w", err)
	}
	remotes := strings.Fields(string(out))
	if st.Branch != nil {
		if up, err := gitrepo.Git(ctx, top, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"); err == nil {
			u := firstLine(up)
			st.Upstream = &u
		}
		cfg, _ := gitrepo.Git(ctx, top, "config", "--get", "branch."+*st.Branch+".remote")
		if r := firstLine(cfg); slices.Contains(remotes, r) {
			st.Remote = &r
			return nil
		}
	}
	switch {
	case slices.Contains(remotes, "origin"):
		r := "origin"
		st.Remote = &r
	case len(remotes) == 1:
		st.Remote = &remotes[0]
	}
	return nil
}
