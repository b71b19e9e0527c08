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

// TestCodexInstallDirs: for npm's Codex (the .bin link to the package's
// node script) every box reads the @openai directory, which holds the
// platform package with the native binary too; another program, its own
// directory.
func TestCodexInstallDirs(t *testing.T) {
	scope := filepath.Join(t.TempDir(), "node_modules", "@openai")
	script := filepath.Join(scope, "codex", "bin", "codex.js")
	other := filepath.Join(t.TempDir(), "codex")
	for _, f := range []string{script, other} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(filepath.Dir(scope), ".bin", "codex")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../@openai/codex/bin/codex.js", link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{link: scope, other: filepath.Dir(other)} {
		want, err := filepath.EvalSymlinks(want)
		if err != nil {
			t.Fatal(err)
		}
		if got := codexInstallDirs(path); !slices.Equal(got, []string{want}) {
			t.Errorf("codexInstallDirs(%s) = %q, want %q", path, got, want)
		}
	}
}
