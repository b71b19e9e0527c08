package fakeopenai

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// FakeKey is the API key CodexEnv sets, in the variable KeyEnv: the model
// provider the CLI is given reads it from there (env_key).
const (
	FakeKey = "sk-fake"
	KeyEnv  = "FAKE_OPENAI_KEY"
)

// CodexConfig is a config.toml that makes the CLI use s: a model provider
// "fake" at BaseURL, with the key in KeyEnv, and the model "gpt-fake".
func (s *Server) CodexConfig() string {
	return fmt.Sprintf(`model_provider = "fake"
model = "gpt-fake"

[model_providers.fake]
name = "Fake"
base_url = %q
env_key = %q
wire_api = "responses"
`, s.BaseURL(), KeyEnv)
}

// CodexEnv prepares a throwaway home for the real CLI under dir and returns
// a complete, clean environment for running it against s: HOME=dir/home,
// CODEX_HOME=dir/home/.codex (created, holding CodexConfig as its
// config.toml), the fake key in KeyEnv, and the
// proxies pointing at s (so any other host is refused here). PATH is the
// test's own, after dir/bin, which holds the codex-linux-sandbox link the
// CLI's sandbox needs when CODEX_HOME is under /tmp (agents.md §C). Only
// PATH and SHELL come from the test's environment, so no OPENAI_* or
// CODEX_* setting leaks in and the machine's ~/.codex is never read.
func (s *Server) CodexEnv(tb testing.TB, dir string) []string {
	tb.Helper()
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{filepath.Join(home, ".codex"), bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(s.CodexConfig()), 0o600); err != nil {
		tb.Fatal(err)
	}
	if native, err := NativeCodex(); err == nil {
		if err := os.Symlink(native, filepath.Join(bin, "codex-linux-sandbox")); err != nil && !errors.Is(err, os.ErrExist) {
			tb.Fatal(err)
		}
	}
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"CODEX_HOME=" + filepath.Join(home, ".codex"),
		"LANG=C.UTF-8",
		KeyEnv + "=" + FakeKey,
		"HTTPS_PROXY=" + s.URL(), "HTTP_PROXY=" + s.URL(),
		"https_proxy=" + s.URL(), "http_proxy=" + s.URL(),
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	if sh := os.Getenv("SHELL"); sh != "" {
		env = append(env, "SHELL="+sh)
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

// NativeCodex is the pinned package's static binary, the one the npm
// wrapper (node_modules/.bin/codex) runs.
func NativeCodex() (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	triple := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH] + "-unknown-linux-musl"
	p := filepath.Join(root, "node_modules", "@openai", "codex-linux-"+arch, "vendor", triple, "bin", "codex")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("find the codex binary: %w", err)
	}
	return p, nil
}

// RequireCodex returns the path of the pinned real CLI,
// <module root>/node_modules/.bin/codex. When it is missing the test is
// skipped with a loud message, or fails when the environment has CI=true:
// CI must run the real-CLI tests.
func RequireCodex(tb testing.TB) string {
	tb.Helper()
	root, err := ModuleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(root, "node_modules", ".bin", "codex")
	fi, err := os.Stat(path)
	if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return path
	}
	msg := fmt.Sprintf("real Codex CLI not found at %s (run `npm ci` in %s): "+
		"the real-CLI integration test did NOT run", path, root)
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + "; CI=true requires it")
	}
	tb.Skip("!!! SKIPPING: " + msg + " !!!")
	return ""
}
