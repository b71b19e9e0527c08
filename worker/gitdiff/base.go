package gitdiff

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// defaultBranches are tried in order by DefaultBase.
var defaultBranches = []string{"refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master"}

// DefaultBase returns the full sha of the merge base of HEAD with the
// default branch: origin/HEAD, else main, else master (the first that exists
// and shares history with HEAD), else HEAD's root commit (the oldest one
// when there are several).
//
// While HEAD has no commit (a new repository), it returns the sha of the
// empty tree (4b825dc642cb6eb9a060e54bf8d69288fbee4904 in SHA-1
// repositories): every tracked and untracked file then shows as added, and
// Compute reports head as null. Compute accepts that tree sha as a base;
// ResolveBase does not, as it is not a commit.
func DefaultBase(ctx context.Context, dir string) (string, error) {
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		return "", fmt.Errorf("default base: %w", err)
	}
	head, err := headSHA(ctx, top)
	if err != nil {
		return "", fmt.Errorf("default base: %w", err)
	}
	if head == nil {
		return emptyTree(ctx, top)
	}
	for _, ref := range defaultBranches {
		if !commitExists(ctx, top, ref) {
			continue
		}
		out, err := gitrepo.Git(ctx, top, "merge-base", "HEAD", ref)
		if err == nil {
			return firstLine(out), nil
		}
		if gitrepo.ExitCode(err) != 1 { // 1: no common ancestor
			return "", fmt.Errorf("default base: %w", err)
		}
	}
	out, err := gitrepo.Git(ctx, top, "rev-list", "--max-parents=0", "HEAD", "--")
	if err != nil {
		return "", fmt.Errorf("default base: %w", err)
	}
	roots := strings.Fields(string(out))
	if len(roots) == 0 {
		return "", fmt.Errorf("default base: HEAD has no root commit")
	}
	return roots[len(roots)-1], nil
}

// ResolveBase turns a user's commit-ish (a branch, tag, sha, HEAD~2,
// origin/main...) into a full commit sha. Anything that is not a plain
// commit-ish is refused with ErrInvalidBase before git sees it: a leading
// '-', "..", ':', whitespace, control characters, glob characters, '\\' and
// "^{". A name that does not resolve to a commit is ErrInvalidBase too.
func ResolveBase(ctx context.Context, dir, base string) (string, error) {
	if !plainCommitish(base) {
		return "", fmt.Errorf("resolve base %q: %w", base, ErrInvalidBase)
	}
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		return "", fmt.Errorf("resolve base: %w", err)
	}
	out, err := gitrepo.Git(ctx, top, "rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}")
	if err != nil {
		if gitrepo.ExitCode(err) == 1 {
			return "", fmt.Errorf("resolve base %q: %w", base, ErrInvalidBase)
		}
		return "", fmt.Errorf("resolve base %q: %w", base, err)
	}
	return firstLine(out), nil
}

// plainCommitish reports whether s may be handed to git as a revision:
// nothing that reads as an option, a range, a path (rev:path), a search
// (:/text, ^{/text}) or a glob.
func plainCommitish(s string) bool {
	if s == "" || len(s) > 256 || s[0] == '-' || strings.Contains(s, "..") || strings.Contains(s, "^{") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`:\?*[`, c) >= 0 {
			return false
		}
	}
	return true
}

// headSHA returns HEAD's commit, or nil while the branch has none.
func headSHA(ctx context.Context, top string) (*string, error) {
	out, err := gitrepo.Git(ctx, top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		if gitrepo.ExitCode(err) == 1 {
			return nil, nil
		}
		return nil, fmt.Errorf("resolve HEAD: %w", err)
	}
	head := firstLine(out)
	return &head, nil
}

func commitExists(ctx context.Context, top, ref string) bool {
	_, err := gitrepo.Git(ctx, top, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	return err == nil
}

// emptyTree asks git for the empty tree's sha, which depends on the
// repository's hash algorithm. Nothing is written.
func emptyTree(ctx context.Context, top string) (string, error) {
	out, err := gitrepo.GitInput(ctx, top, []byte{}, "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", fmt.Errorf("hash empty tree: %w", err)
	}
	return firstLine(out), nil
}

// isSHA reports whether s is a full lowercase SHA-1 or SHA-256 hex name.
func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func firstLine(out []byte) string {
	s, _, _ := strings.Cut(string(out), "\n")
	return s
}

// baseState says whether a runtime's base is the default one and when it
// was computed. The default base (the merge base of HEAD with the default
// branch) moves with HEAD and that branch: each change of HEAD, the index
// or a branch the watcher sees counts in gen, and the base is computed
// again before a diff when gen moved since, or when no watcher runs.
// A runtime's mu guards it.
type baseState struct {
	dflt   bool   // the worker diffs against the default base
	gen    uint64 // git changes seen
	at     uint64 // gen when the default base was last computed
	chosen uint64 // counts SetBase calls: a base computed before one is dropped
}

// set records a new base from SetBase: the default one (just computed) or
// a chosen commit.
func (b *baseState) set(dflt bool) {
	b.dflt, b.at = dflt, b.gen
	b.chosen++
}

// currentBase returns the sha the diff is computed against, computing the
// default base again when HEAD or a branch may have moved.
func (r *Runtime) currentBase(ctx context.Context) (string, error) {
	r.mu.Lock()
	sha, b := r.baseSHA, r.base
	fresh := !b.dflt || (r.watcher != nil && b.at == b.gen)
	r.mu.Unlock()
	if fresh {
		return sha, nil
	}
	sha, err := DefaultBase(ctx, r.dir)
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	if r.base.chosen == b.chosen { // no SetBase meanwhile
		r.baseSHA, r.base.at = sha, b.gen
	}
	r.mu.Unlock()
	return sha, nil
}
