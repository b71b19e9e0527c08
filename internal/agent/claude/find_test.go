package claude_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// TestFind: claude on PATH first, else ./node_modules/.bin/claude, else
// the bare name; Resolve then finds what Find picked, or says how to
// install the CLI. Not parallel: it changes PATH and the directory.
func TestFind(t *testing.T) {
	onPath, work := t.TempDir(), t.TempDir()
	bin := filepath.Join(work, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := []byte("#!/bin/sh\n")
	if err := os.WriteFile(filepath.Join(bin, "claude"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("PATH", onPath)
	want := filepath.Join(bin, "claude")
	if got := claude.Find(); got != want {
		t.Errorf("without claude on PATH: Find() = %q, want %q", got, want)
	}
	if err := os.WriteFile(filepath.Join(onPath, "claude"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	want = filepath.Join(onPath, "claude")
	if got := claude.Find(); got != want {
		t.Errorf("with claude on PATH: Find() = %q, want %q", got, want)
	}
	if got, err := claude.Resolve(""); err != nil || got != want {
		t.Errorf("Resolve(\"\") = %q, %v, want %q", got, err, want)
	}
	t.Chdir(t.TempDir())
	t.Setenv("PATH", t.TempDir())
	if got := claude.Find(); got != claude.DefaultPath {
		t.Errorf("with no CLI anywhere: Find() = %q, want %q", got, claude.DefaultPath)
	}
	_, err := claude.Resolve(claude.DefaultPath)
	if !errors.Is(err, claude.ErrNotFound) || !strings.Contains(err.Error(), "npm install") {
		t.Errorf("Resolve of a missing CLI: %v, want ErrNotFound", err)
	}
}
