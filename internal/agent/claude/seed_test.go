package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

const testKey = "sk-ant-0123456789abcdefghijKLMNOPQRST" // the last 20: abcdefghijKLMNOPQRST

func readJSON(t *testing.T, file string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// jsonPath follows keys through nested objects.
func jsonPath(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

func TestSeedConfigMergesAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	cwd := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(cwd, link); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(cwd)
	file := filepath.Join(dir, ".claude.json")
	other := `{"numStartups": 7, "theme": "light", "projects": {"/elsewhere": {"hasTrustDialogAccepted": false, "x": [1]}},
		"customApiKeyResponses": {"approved": ["older-key"], "rejected": ["bad"]}, "nested": {"a": {"b": null}}}`
	if err := os.WriteFile(file, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=/nonexistent", "CLAUDE_CONFIG_DIR=" + dir, "ANTHROPIC_API_KEY=" + testKey}

	res, err := claude.SeedConfig(env, link) // the CLI keys projects by the resolved path
	if err != nil {
		t.Fatal(err)
	}
	if res.File != file || len(res.Changes) != 3 {
		t.Fatalf("result %+v", res)
	}
	m := readJSON(t, file)
	checks := []struct {
		keys []string
		want any
	}{
		{[]string{"hasCompletedOnboarding"}, true},
		{[]string{"projects", real, "hasTrustDialogAccepted"}, true},
		{[]string{"projects", real, "hasCompletedProjectOnboarding"}, true},
		{[]string{"numStartups"}, 7.0},
		{[]string{"theme"}, "light"},
		{[]string{"projects", "/elsewhere", "hasTrustDialogAccepted"}, false},
		{[]string{"nested", "a", "b"}, nil},
	}
	for _, c := range checks {
		if got := jsonPath(m, c.keys...); got != c.want {
			t.Errorf("%v = %v, want %v", c.keys, got, c.want)
		}
	}
	approved, _ := jsonPath(m, "customApiKeyResponses", "approved").([]any)
	if !slices.Equal(approved, []any{"older-key", "abcdefghijKLMNOPQRST"}) {
		t.Errorf("approved %v", approved)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}

	before, _ := os.ReadFile(file)
	again, err := claude.SeedConfig(env, cwd)
	if err != nil || len(again.Changes) != 0 {
		t.Fatalf("second seed: %+v, %v", again, err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("the second seed rewrote the file")
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".claude.json.agentdesk-*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// After the CLI rewrites the file it drops hasCompletedProjectOnboarding;
// that is not a reason to write again.
func TestSeedConfigAfterCLIRewrite(t *testing.T) {
	dir, cwd := t.TempDir(), t.TempDir()
	real, _ := filepath.EvalSymlinks(cwd)
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{real: map[string]any{"hasTrustDialogAccepted": true, "lastCost": 0}},
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, ".claude.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := claude.SeedConfig([]string{"HOME=" + dir}, cwd)
	if err != nil || len(res.Changes) != 0 {
		t.Fatalf("seed: %+v, %v", res, err)
	}
}

func TestSeedConfigNewFile(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	res, err := claude.SeedConfig([]string{"HOME=" + home}, cwd) // no key: no approval
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, ".claude.json")
	if res.File != file || len(res.Changes) != 2 {
		t.Fatalf("result %+v", res)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file mode %v, %v", fi.Mode(), err)
	}
	if m := readJSON(t, file); m["customApiKeyResponses"] != nil {
		t.Errorf("approved a key that is not set: %v", m)
	}
	// A config directory that does not exist yet is created.
	dir := filepath.Join(t.TempDir(), "new", "config")
	if _, err := claude.SeedConfig([]string{"CLAUDE_CONFIG_DIR=" + dir}, cwd); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude.json")); err != nil {
		t.Fatal(err)
	}
}

func TestSeedConfigKeepsModeAndSymlink(t *testing.T) {
	dir, cwd := t.TempDir(), t.TempDir()
	target := filepath.Join(t.TempDir(), "dotfiles-claude.json")
	if err := os.WriteFile(target, []byte(`{}`), 0o640); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, ".claude.json")
	if err := os.Symlink(target, file); err != nil {
		t.Fatal(err)
	}
	if _, err := claude.SeedConfig([]string{"CLAUDE_CONFIG_DIR=" + dir}, cwd); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(file); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	if m := readJSON(t, target); m["hasCompletedOnboarding"] != true {
		t.Errorf("target not seeded: %v", m)
	}
}

func TestSeedConfigRefusesToClobber(t *testing.T) {
	tests := []struct{ name, content, mentions string }{
		{"not JSON", `{"a": `, "not a JSON object"},
		{"an array", `[1, 2]`, "not a JSON object"},
		{"projects not an object", `{"projects": []}`, `"projects"`},
		{"project not an object", `{"projects": {"CWD": true}}`, "is not a JSON object"},
		{"approved not a list", `{"customApiKeyResponses": {"approved": "x"}}`, `"approved"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cwd := t.TempDir(), t.TempDir()
			real, _ := filepath.EvalSymlinks(cwd)
			content := strings.ReplaceAll(tt.content, "CWD", real)
			file := filepath.Join(dir, ".claude.json")
			if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := claude.SeedConfig([]string{"CLAUDE_CONFIG_DIR=" + dir, "ANTHROPIC_API_KEY=k"}, cwd)
			if err == nil || !strings.Contains(err.Error(), tt.mentions) {
				t.Fatalf("error %v, want one naming %s", err, tt.mentions)
			}
			if b, _ := os.ReadFile(file); string(b) != content {
				t.Errorf("file changed to %s", b)
			}
		})
	}
}

func TestSeedConfigRespectsRejectedKey(t *testing.T) {
	dir, cwd := t.TempDir(), t.TempDir()
	real, _ := filepath.EvalSymlinks(cwd)
	cfg := `{"hasCompletedOnboarding": true, "projects": {"` + real + `": {"hasTrustDialogAccepted": true}},
		"customApiKeyResponses": {"approved": [], "rejected": ["abcdefghijKLMNOPQRST"]}}`
	if err := os.WriteFile(filepath.Join(dir, ".claude.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := claude.SeedConfig([]string{"CLAUDE_CONFIG_DIR=" + dir, "ANTHROPIC_API_KEY=" + testKey}, cwd)
	if err != nil || len(res.Changes) != 0 {
		t.Fatalf("seed: %+v, %v", res, err)
	}
}

func TestSeedConfigNoHome(t *testing.T) {
	if _, err := claude.SeedConfig([]string{"PATH=/bin"}, t.TempDir()); err == nil {
		t.Fatal("no error without HOME or CLAUDE_CONFIG_DIR")
	}
}

// The terminal view's added directories (--add-dir) are trusted with the
// session's: the interactive CLI otherwise asks about each at start.
func TestSeedConfigAddedDirs(t *testing.T) {
	home, cwd, extra := t.TempDir(), t.TempDir(), t.TempDir()
	res, err := claude.SeedConfig([]string{"HOME=" + home}, cwd, extra)
	if err != nil || len(res.Changes) != 3 {
		t.Fatalf("seed: %+v, %v", res, err)
	}
	m := readJSON(t, filepath.Join(home, ".claude.json"))
	for _, d := range []string{cwd, extra} {
		real, _ := filepath.EvalSymlinks(d)
		if got := jsonPath(m, "projects", real, "hasTrustDialogAccepted"); got != true {
			t.Errorf("%s trusted = %v", d, got)
		}
	}
	if again, err := claude.SeedConfig([]string{"HOME=" + home}, cwd, extra); err != nil || len(again.Changes) != 0 {
		t.Errorf("second seed: %+v, %v", again, err)
	}
}
