package agentbox_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/agentbox"
)

// TestCodexFromConfig: the box reaches what the user's config.toml names,
// read again for each box: a custom provider's base_url with its env_key,
// the one a profile picks, a built-in local provider, the built-in OpenAI
// provider (also with no config at all); an address the box cannot keep
// (http off loopback, or below port 1024) is left out.
func TestCodexFromConfig(t *testing.T) {
	user := t.TempDir()
	a := agentbox.Codex(worker.Config{ChildEnv: []string{"CODEX_HOME=" + user}}, slog.New(slog.DiscardHandler))
	if a.ConfigVar != "CODEX_HOME" || a.ConfigName != ".codex" || a.EndpointVar != "" || !slices.Contains(a.Pass, "OPENAI_*") {
		t.Fatalf("agent box %+v", a)
	}
	openai := []string{"https://api.openai.com/v1", "https://chatgpt.com", "https://auth.openai.com"}
	for _, c := range []struct {
		name, config string
		urls, pass   []string
	}{
		{"no config", "", openai, nil},
		{"custom", "model_provider = \"fake\"\n[model_providers.fake]\nbase_url = \"http://127.0.0.1:18767/v1\"\nenv_key = \"FAKE_KEY\"\n",
			[]string{"http://127.0.0.1:18767/v1"}, []string{"FAKE_KEY"}},
		{"profile", "model_provider = \"fake\"\nprofile = \"work\"\n[profiles.work]\nmodel_provider = \"azure\"\n" +
			"[model_providers.azure]\nbase_url = \"https://x.openai.azure.com/openai\"\nenv_key = \"AZURE_KEY\"\n",
			[]string{"https://x.openai.azure.com/openai"}, []string{"AZURE_KEY"}},
		{"ollama", "model_provider = \"ollama\"\n", []string{"http://localhost:11434/v1"}, nil},
		{"openai base", "openai_base_url = \"https://proxy.example.com/v1\"\n",
			[]string{"https://proxy.example.com/v1", "https://chatgpt.com", "https://auth.openai.com"}, nil},
		{"off loopback", "model_provider = \"lan\"\n[model_providers.lan]\nbase_url = \"http://192.0.2.7:8000/v1\"\nenv_key = \"LAN_KEY\"\n",
			nil, []string{"LAN_KEY"}},
		{"low port", "model_provider = \"web\"\n[model_providers.web]\nbase_url = \"http://localhost/v1\"\n", nil, nil},
		{"broken", "model_provider = [", openai, nil},
	} {
		file := filepath.Join(user, "config.toml")
		os.Remove(file)
		if c.config != "" {
			write(t, file, c.config, time.Now())
		}
		urls, pass := a.FromConfig()
		if !slices.Equal(urls, c.urls) || !slices.Equal(pass, c.pass) {
			t.Errorf("%s: urls %q pass %q, want %q %q", c.name, urls, pass, c.urls, c.pass)
		}
	}
}

// TestCodexPrepare: the box's CODEX_HOME gets the user's login and
// config.toml (again only when the user's copy is newer), nothing else of
// theirs, and nothing is written to the user's.
func TestCodexPrepare(t *testing.T) {
	user, box := t.TempDir(), t.TempDir()
	a := agentbox.Codex(worker.Config{ChildEnv: []string{"HOME=" + user}}, slog.New(slog.DiscardHandler))
	old := time.Now().Add(-time.Hour)
	home := filepath.Join(user, ".codex")
	write(t, filepath.Join(home, "auth.json"), "login-1", old)
	write(t, filepath.Join(home, "config.toml"), "model = \"m\"\n", old)
	write(t, filepath.Join(home, "history.jsonl"), "the user's history", old)
	if err := a.Prepare(box, worker.Session{}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(box, "auth.json")); got != "login-1" {
		t.Fatalf("box login %q", got)
	}
	if _, err := os.Stat(filepath.Join(box, "history.jsonl")); !os.IsNotExist(err) {
		t.Fatalf("the user's history went into the box: %v", err)
	}
	write(t, filepath.Join(box, "auth.json"), "refreshed in the box", time.Now())
	if err := a.Prepare(box, worker.Session{}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(box, "auth.json")); got != "refreshed in the box" {
		t.Fatalf("an older user login replaced the box's: %q", got)
	}
	if got := read(t, filepath.Join(home, "auth.json")); got != "login-1" {
		t.Fatalf("the user's login changed: %q", got)
	}
}
