package codex

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// DefaultPath is the CLI run when none is configured: looked up on PATH.
const DefaultPath = "codex"

// ErrNotFound is a CLI that does not exist or cannot be run. Its text says
// how to install it.
var ErrNotFound = errors.New("the codex CLI was not found: install it (npm install -g @openai/codex) or name it with --codex")

// Find picks the CLI when none is configured (no --codex): codex on PATH,
// else the project's pinned devDependency ./node_modules/.bin/codex (made
// absolute), else DefaultPath, which Resolve then reports missing.
// agentdesk starts without it; a Codex chat reports it when it starts.
func Find() string {
	if p, err := exec.LookPath(DefaultPath); err == nil {
		return p
	}
	if p, err := filepath.Abs(filepath.Join("node_modules", ".bin", "codex")); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return DefaultPath
}

// Resolve returns the executable path names ("" is DefaultPath), found
// the way exec finds it (a bare name is looked up on the server's PATH).
// Every failure (missing, not executable, a directory) wraps ErrNotFound.
func Resolve(path string) (string, error) {
	if path == "" {
		path = DefaultPath
	}
	resolved, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("%w (%w)", ErrNotFound, err)
	}
	return resolved, nil
}
