package agentbox_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/agentbox"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func write(t *testing.T, path, data string, mod time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClaudePrepare: the box gets the user's login (again only when the
// user's copy is newer than the box's own), the adopted conversation
// (once), and the consent to bypassPermissions, keeping its own settings;
// nothing else of the user's config.
func TestClaudePrepare(t *testing.T) {
	host, box, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	a := agentbox.Claude(worker.Config{ChildEnv: []string{"CLAUDE_CONFIG_DIR=" + host}})
	if a.ConfigVar != "CLAUDE_CONFIG_DIR" || a.EndpointVar != "ANTHROPIC_BASE_URL" {
		t.Fatalf("agent box %+v", a)
	}
	old := time.Now().Add(-time.Hour)
	write(t, filepath.Join(host, ".credentials.json"), "login-1", old)
	write(t, filepath.Join(host, ".claude.json"), "the user's projects", old)
	conv := "0a1b2c3d-0000-4000-8000-000000000001"
	write(t, claude.SessionFilePath(host, cwd, conv), "conversation\n", old)
	write(t, filepath.Join(box, "settings.json"), `{"model":"sonnet"}`, old)
	s := worker.Session{Cwd: cwd, ClaudeSessionID: &conv}
	if err := a.Prepare(box, s); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(box, ".credentials.json")); got != "login-1" {
		t.Errorf("login %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(box, ".credentials.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("login copied with mode %v", fi.Mode())
	}
	if got := read(t, claude.SessionFilePath(box, cwd, conv)); got != "conversation\n" {
		t.Errorf("adopted conversation %q", got)
	}
	if _, err := os.Stat(filepath.Join(box, ".claude.json")); err == nil {
		t.Error("the user's .claude.json was copied into the box")
	}
	var settings map[string]any
	if err := json.Unmarshal([]byte(read(t, filepath.Join(box, "settings.json"))), &settings); err != nil ||
		settings["skipDangerousModePermissionPrompt"] != true || settings["model"] != "sonnet" {
		t.Errorf("box settings %v (%v)", settings, err)
	}

	// The box's CLI refreshed its login and went on with the conversation:
	// kept. Then the user logs in again: the newer login comes in.
	write(t, filepath.Join(box, ".credentials.json"), "login-refreshed", time.Now())
	write(t, claude.SessionFilePath(box, cwd, conv), "conversation\nmore\n", time.Now())
	if err := a.Prepare(box, s); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(box, ".credentials.json")); got != "login-refreshed" {
		t.Errorf("the box's own newer login was overwritten: %q", got)
	}
	if got := read(t, claude.SessionFilePath(box, cwd, conv)); got != "conversation\nmore\n" {
		t.Errorf("the box's conversation was overwritten: %q", got)
	}
	write(t, filepath.Join(host, ".credentials.json"), "login-2", time.Now().Add(time.Hour))
	if err := a.Prepare(box, s); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(box, ".credentials.json")); got != "login-2" {
		t.Errorf("the user's newer login did not come in: %q", got)
	}
}
