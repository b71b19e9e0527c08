package fakeapi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// FakeKey is the API key ClaudeEnv sets.
const FakeKey = "sk-fake"

// ClaudeEnv returns a complete, clean environment for running the real CLI
// against s (claude-cli.md §2): HOME=home, CLAUDE_CONFIG_DIR=home/.claude,
// a fake key, the base URL and the proxies pointing at s (so any other
// host is refused here), CLAUDE_CODE_MAX_RETRIES=1, and telemetry, updates
// and side traffic off. Only PATH and SHELL come from the test's own
// environment, so no ANTHROPIC_* or CLAUDE_* setting leaks in.
func (s *Server) ClaudeEnv(home string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"ANTHROPIC_API_KEY=" + FakeKey,
		"ANTHROPIC_BASE_URL=" + s.URL(),
		"HTTPS_PROXY=" + s.URL(), "HTTP_PROXY=" + s.URL(),
		"https_proxy=" + s.URL(), "http_proxy=" + s.URL(),
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"CLAUDE_CODE_MAX_RETRIES=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
	}
	if sh := os.Getenv("SHELL"); sh != "" {
		env = append(env, "SHELL="+sh) // the Bash tool looks for a shell
	}
	return env
}

// ModuleRoot finds the directory holding go.mod, from the working
// directory up (tests run in their package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find module root: %w", err)
	}
	for range 64 { // bounded: a path has fewer levels than that
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", errors.New("find module root: no go.mod above the working directory")
}

// RequireClaude returns the path of the pinned real CLI,
// <module root>/node_modules/.bin/claude. When it is missing the test is
// skipped with a loud message, or fails when the environment has CI=true:
// CI must run the real-CLI tests.
func RequireClaude(tb testing.TB) string {
	tb.Helper()
	root, err := ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(root, "node_modules", ".bin", "claude")
	fi, err := os.Stat(path)
	if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return path
	}
	msg := fmt.Sprintf("real Claude CLI not found at %s (run `npm ci` in %s): "+
		"the real-CLI integration test did NOT run", path, root)
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + "; CI=true requires it")
	}
	tb.Skip("!!! SKIPPING: " + msg + " !!!")
	return ""
}
