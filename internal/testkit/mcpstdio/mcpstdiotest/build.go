// Package mcpstdiotest builds the mcpstdio test double for tests.
package mcpstdiotest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// Build compiles internal/testkit/mcpstdio into dir and returns the
// binary's path.
func Build(dir string) (string, error) {
	root, err := fakeapi.ModuleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcpstdio")
	gobin := "go"
	if goroot := os.Getenv("GOROOT"); goroot != "" {
		if _, err := os.Stat(filepath.Join(goroot, "bin", "go")); err == nil {
			gobin = filepath.Join(goroot, "bin", "go")
		}
	}
	cmd := exec.Command(gobin, "build", "-o", bin, "./internal/testkit/mcpstdio")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build mcpstdio: %w\n%s", err, out)
	}
	return bin, nil
}
