package gitrepo

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestToplevel(t *testing.T) {
	repo := newRepo(t, "repo")
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	bare := filepath.Join(t.TempDir(), "bare.git")
	git(t, plain, "init", "-q", "--bare", bare)
	tests := []struct {
		name    string
		dir     string
		want    string
		notRepo bool
	}{
		{"root", repo, repo, false},
		{"subdir", sub, repo, false},
		{"plain dir", plain, "", true},
		{"missing dir", filepath.Join(plain, "nope"), "", true},
		{"file", filepath.Join(repo, "README"), "", true},
		{"empty", "", "", true},
		{"bare repo", bare, "", true},
		{"git dir", filepath.Join(repo, ".git"), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Toplevel(t.Context(), tt.dir)
			if tt.notRepo {
				if !errors.Is(err, ErrNotRepo) {
					t.Fatalf("Toplevel(%q) = %q, %v; want ErrNotRepo", tt.dir, got, err)
				}
				if IsWorkTree(t.Context(), tt.dir) {
					t.Fatalf("IsWorkTree(%q) = true", tt.dir)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Toplevel(%q) = %q, %v; want %q", tt.dir, got, err, tt.want)
			}
			if !IsWorkTree(t.Context(), tt.dir) {
				t.Fatalf("IsWorkTree(%q) = false", tt.dir)
			}
		})
	}
}

func TestGitIgnoresInheritedGitEnv(t *testing.T) {
	repo := newRepo(t, "repo")
	other := newRepo(t, "other")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	got, err := Toplevel(t.Context(), repo)
	if err != nil || got != repo {
		t.Fatalf("Toplevel = %q, %v; want %q", got, err, repo)
	}
}

func TestGitErrorCarriesStderr(t *testing.T) {
	repo := newRepo(t, "repo")
	_, err := Git(t.Context(), repo, "rev-parse", "--verify", "no-such-ref")
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if ge.ExitCode != 128 || ExitCode(err) != 128 {
		t.Fatalf("exit code = %d", ge.ExitCode)
	}
	if !strings.Contains(err.Error(), "git rev-parse") || !strings.Contains(err.Error(), "fatal:") {
		t.Fatalf("message %q lacks the command or stderr", err)
	}
	if errors.Is(err, ErrNotRepo) {
		t.Fatal("a bad ref is not ErrNotRepo")
	}
}

func TestGitStreamReadError(t *testing.T) {
	repo := newRepo(t, "repo")
	boom := errors.New("boom")
	err := GitStream(t.Context(), repo, func(r io.Reader) error {
		return boom
	}, "log", "-p")
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

func TestGitInput(t *testing.T) {
	repo := newRepo(t, "repo")
	out, err := GitInput(t.Context(), repo, []byte{}, "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Fatalf("empty tree = %q", got)
	}
}

// TestHooksSeeNoAgentdeskVariables: git and the repository's hooks run
// without agentdesk's own variables (the token above all).
func TestHooksSeeNoAgentdeskVariables(t *testing.T) {
	t.Setenv("AGENTDESK_TOKEN", "secret")
	t.Setenv("AGENTDESK_WORKER", "w/run")
	repo := newRepo(t, "repo")
	out := filepath.Join(t.TempDir(), "hook-env")
	hook := "#!/bin/sh\nenv > '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(repo, ".git", "hooks", "pre-commit"), []byte(hook), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Git(t.Context(), repo, "-c", "user.name=T", "-c", "user.email=t@example.com",
		"commit", "-q", "--allow-empty", "-m", "hooked"); err != nil {
		t.Fatal(err)
	}
	env, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	if strings.Contains(string(env), "AGENTDESK_") || !strings.Contains(string(env), "GIT_TERMINAL_PROMPT=0") {
		t.Fatalf("hook environment:\n%s", env)
	}
}
