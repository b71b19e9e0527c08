package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestInstallDirs: the CLI's directory, through a link (npm's .bin), is
// what every box reads; a missing CLI adds nothing.
func TestInstallDirs(t *testing.T) {
	real := filepath.Join(t.TempDir(), "pkg", "bin")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(real, "claude.exe")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "claude")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	if got := installDirs(link); !slices.Equal(got, []string{want}) {
		t.Errorf("installDirs(%s) = %q, want %q", link, got, want)
	}
	if got := installDirs(filepath.Join(t.TempDir(), "missing")); got != nil {
		t.Errorf("a missing CLI: %q", got)
	}
}
