package worker

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitPaths are what a box needs of the git repository holding cwd, read
// from the files (no git runs): the git directory and its common directory
// when they are outside cwd (a linked worktree, a subdirectory of a
// repository), writable, so that git works in the box; and, read-only in
// any case, what git outside the box obeys: the config (hooks path,
// fsmonitor, filters), the hooks, and the submodules' own.
func gitPaths(cwd string) (writable, protect []string) {
	gitDir, common, ok := findGitDirs(cwd)
	if !ok {
		return nil, nil
	}
	for _, d := range []string{gitDir, common} {
		if !within(d, cwd) && !slices.Contains(writable, d) {
			writable = append(writable, d)
		}
	}
	// A missing hooks directory would be made in the box, and run outside.
	_ = os.Mkdir(filepath.Join(common, "hooks"), 0o755)
	protect = []string{filepath.Join(common, "config"), filepath.Join(common, "hooks"), filepath.Join(common, "modules")}
	if gitDir != common {
		protect = append(protect, filepath.Join(gitDir, "config.worktree"))
	}
	return writable, protect
}

// findGitDirs finds the .git of cwd or its nearest ancestor: a directory
// (a repository's own), or a file naming the git directory (a linked
// worktree), whose commondir file names the shared one.
func findGitDirs(cwd string) (gitDir, common string, ok bool) {
	for d := filepath.Clean(cwd); ; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p, p, true
			}
			return linkedGitDirs(d, p)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

func linkedGitDirs(top, file string) (gitDir, common string, ok bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", false
	}
	dir, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !found {
		return "", "", false
	}
	gitDir = absFrom(top, strings.TrimSpace(dir))
	common = gitDir
	if c, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = absFrom(gitDir, strings.TrimSpace(string(c)))
	}
	return gitDir, common, true
}

func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
