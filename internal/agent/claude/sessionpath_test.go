package claude_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

func TestConfigDir(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"config dir wins", []string{"HOME=/h", "CLAUDE_CONFIG_DIR=/c"}, "/c"},
		{"home", []string{"PATH=/bin", "HOME=/h"}, "/h/.claude"},
		{"empty config dir", []string{"CLAUDE_CONFIG_DIR=", "HOME=/h"}, "/h/.claude"},
		{"last value counts", []string{"CLAUDE_CONFIG_DIR=/a", "CLAUDE_CONFIG_DIR=/b"}, "/b"},
		{"prefix is not the key", []string{"CLAUDE_CONFIG_DIRX=/x", "HOMEDIR=/y"}, ""},
		{"neither", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := claude.ConfigDir(tt.env); got != tt.want {
				t.Errorf("ConfigDir = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFindSessionFile(t *testing.T) {
	cfg := t.TempDir()
	cwd := t.TempDir()
	const id = "0190a000-0000-7000-8000-000000000001"
	put := func(p string, mod time.Time) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	if p, ok := claude.FindSessionFile(cfg, cwd, id); ok {
		t.Fatalf("found %s in an empty config dir", p)
	}
	// Created elsewhere (two candidates: the newer wins).
	old := time.Now().Add(-time.Hour)
	put(filepath.Join(cfg, "projects", "-elsewhere-a", id+".jsonl"), old)
	put(filepath.Join(cfg, "projects", "-elsewhere-b", id+".jsonl"), old.Add(time.Minute))
	put(filepath.Join(cfg, "projects", "-elsewhere-c", "other.jsonl"), time.Now())
	if p, ok := claude.FindSessionFile(cfg, cwd, id); !ok || filepath.Base(filepath.Dir(p)) != "-elsewhere-b" {
		t.Errorf("fallback: %q %v", p, ok)
	}
	// The cwd's own project directory comes first, however old.
	own := claude.SessionFilePath(cfg, cwd, id)
	put(own, old.Add(-time.Hour))
	if p, ok := claude.FindSessionFile(cfg, cwd, id); !ok || p != own {
		t.Errorf("computed path: %q %v, want %s", p, ok, own)
	}
	for _, bad := range []string{"", "../" + id, "a/b", `a\b`} {
		if p, ok := claude.FindSessionFile(cfg, cwd, bad); ok {
			t.Errorf("id %q found %s", bad, p)
		}
	}
	if _, ok := claude.FindSessionFile("", cwd, id); ok {
		t.Error("no config dir: nothing to find")
	}
}
