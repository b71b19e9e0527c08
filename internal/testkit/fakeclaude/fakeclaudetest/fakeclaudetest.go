// Package fakeclaudetest helps tests use the fakeclaude program and the
// recorded CLI fixtures.
package fakeclaudetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// Build compiles internal/testkit/fakeclaude into dir and returns the binary's
// path. Call it once, from TestMain, with a directory you remove after.
func Build(dir string) (string, error) {
	root, err := fakeapi.ModuleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "fakeclaude")
	cmd := exec.Command(goTool(), "build", "-o", bin, "./internal/testkit/fakeclaude")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build fakeclaude: %w\n%s", err, out)
	}
	return bin, nil
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if goroot := os.Getenv("GOROOT"); goroot != "" {
		if p := filepath.Join(goroot, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// FixtureDir is the directory of the recorded CLI fixtures:
// $CLAUDE_CLI_FIXTURES when set, else testdata/claude-cli in the module
// (a copy of the recordings of the real CLI 2.1.330).
func FixtureDir() (string, error) {
	if d := os.Getenv("CLAUDE_CLI_FIXTURES"); d != "" {
		return d, nil
	}
	root, err := fakeapi.ModuleRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "testdata", "claude-cli")
	if !fileExists(dir) {
		return "", fmt.Errorf("fixture dir %s not found (set CLAUDE_CLI_FIXTURES)", dir)
	}
	return filepath.Clean(dir), nil
}
