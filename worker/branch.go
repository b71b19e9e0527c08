package worker

import (
	"os"
	"path/filepath"
	"strings"
)

// maxHeadBytes bounds the reads of .git and HEAD: both are one short line.
const maxHeadBytes = 4 << 10

// headBranch returns the branch checked out in the git work tree that
// contains dir, or nil when dir is not in one or HEAD is detached. It reads
// the files git itself reads (.git, and HEAD in the git dir) instead of
// running git, because session snapshots are taken under the manager's
// lock; so the answer follows a checkout made in a terminal at the next
// snapshot.
func headBranch(dir string) *string {
	if dir == "" {
		return nil
	}
	for d := filepath.Clean(dir); ; {
		if gitDir, ok := gitDirOf(d); ok {
			return branchInHead(filepath.Join(gitDir, "HEAD"))
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
	}
}

// gitDirOf returns the git dir of a work tree rooted at d: d/.git when it
// is a directory, or the "gitdir: <path>" a linked worktree's .git file
// points to.
func gitDirOf(d string) (string, bool) {
	p := filepath.Join(d, ".git")
	fi, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return p, true
	}
	b, err := readSmall(p)
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", false
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(d, target)
	}
	return target, true
}

// branchInHead reads a HEAD file: "ref: refs/heads/<branch>" names the
// branch; anything else (a detached commit id) has none.
func branchInHead(path string) *string {
	b, err := readSmall(path)
	if err != nil {
		return nil
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref:")
	if !ok {
		return nil
	}
	name, ok := strings.CutPrefix(strings.TrimSpace(ref), "refs/heads/")
	if !ok || name == "" {
		return nil
	}
	return &name
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, maxHeadBytes)
	n, err := f.Read(buf)
	if n == 0 && err != nil {
		return nil, err
	}
	return buf[:n], nil
}
