package claude

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// DefaultPath is the CLI run when none is configured: looked up on PATH.
const DefaultPath = "claude"

// Find picks the CLI when none is configured (no --claude): claude on
// PATH, else the project's pinned devDependency ./node_modules/.bin/claude
// (made absolute), else DefaultPath, which Resolve then reports missing.
// agentdesk starts without a CLI; the agent workers report it when they
// need one.
func Find() string {
	if p, err := exec.LookPath(DefaultPath); err == nil {
		return p
	}
	if p, err := filepath.Abs(filepath.Join("node_modules", ".bin", "claude")); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return DefaultPath
}

// Path returns the CLI to run for a configured path: path itself, or
// DefaultPath when it is "".
func Path(path string) string {
	if path == "" {
		return DefaultPath
	}
	return path
}

// Resolve returns the executable Path(path) names, found the way exec
// finds it (a bare name is looked up on the server's PATH). Every failure
// (missing, not executable, a directory) wraps ErrNotFound, whose text
// tells a person how to install the CLI, and names path.
func Resolve(path string) (string, error) {
	resolved, err := exec.LookPath(Path(path))
	if err != nil {
		return "", fmt.Errorf("%w (%w)", ErrNotFound, err)
	}
	return resolved, nil
}
