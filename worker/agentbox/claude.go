// Package agentbox says what each agent CLI needs in a sandboxed session's
// box (worker.AgentBox): its config directory, its variables, its API, and
// what of the user's own config is copied in. The launcher and the manager
// know no agent; main wires these.
package agentbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/filecopy"
	"github.com/agentdesk/agentdesk/worker"
)

// Claude is what the claude CLI needs in a box (claude-cli.md §2):
// its config directory, its own variables (the API key or OAuth token
// among them, the quiet settings), IS_SANDBOX=1 so that it accepts
// bypassPermissions as root, and the API at ANTHROPIC_BASE_URL. Its login
// is copied in from the user's config directory.
func Claude(wcfg worker.Config) worker.AgentBox {
	host := claude.ConfigDir(claude.ChildEnv(wcfg.ChildEnv, wcfg.ClaudeConfigDir))
	return worker.AgentBox{
		ConfigVar: "CLAUDE_CONFIG_DIR", ConfigName: ".claude",
		Pass:        []string{"ANTHROPIC_*", "CLAUDE_*", "DISABLE_*"},
		Set:         []string{"IS_SANDBOX=1"},
		EndpointVar: "ANTHROPIC_BASE_URL", EndpointURL: "https://api.anthropic.com",
		Prepare: func(dir string, s worker.Session) error { return prepareClaude(host, dir, s) },
	}
}

// prepareClaude fills a box's claude config directory dir: the consent to
// bypassPermissions that the person gave by choosing the box (else the
// terminal UI opens on the CLI's own warning), and from the user's config
// directory host the login (.credentials.json, when the user's copy is
// newer: the CLI in the box refreshes its own) and the conversation an
// adopted session resumes, when the box has none of it yet. Nothing else
// of the user's config goes in.
func prepareClaude(host, dir string, s worker.Session) error {
	if err := consent(filepath.Join(dir, "settings.json")); err != nil {
		return fmt.Errorf("write the box's claude settings: %w", err)
	}
	if host == "" {
		return nil
	}
	if err := filecopy.Newer(filepath.Join(host, ".credentials.json"), filepath.Join(dir, ".credentials.json")); err != nil {
		return fmt.Errorf("copy the claude login: %w", err)
	}
	id := s.ClaudeSessionID
	if id == nil {
		return nil
	}
	if _, ok := claude.FindSessionFile(dir, s.Cwd, *id); ok {
		return nil
	}
	src, ok := claude.FindSessionFile(host, s.Cwd, *id)
	if !ok {
		return nil
	}
	rel, err := filepath.Rel(host, src)
	if err != nil {
		return err
	}
	if err := filecopy.Newer(src, filepath.Join(dir, rel)); err != nil {
		return fmt.Errorf("copy the adopted conversation: %w", err)
	}
	return nil
}

// consent sets skipDangerousModePermissionPrompt in the box's user
// settings file, keeping whatever else the CLI wrote there.
func consent(file string) error {
	doc := map[string]json.RawMessage{}
	b, err := os.ReadFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	if string(doc["skipDangerousModePermissionPrompt"]) == "true" {
		return nil
	}
	doc["skipDangerousModePermissionPrompt"] = json.RawMessage("true")
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(out, '\n'), 0o600)
}
