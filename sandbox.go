package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/worker"
)

// sandboxOptions are the sandboxed sessions' settings: bwrap and socat as
// found now (said in the log: GET /api/capabilities says it too), the
// per-session homes under the data dir, and what each agent needs in a
// box.
func sandboxOptions(ctx context.Context, dataDir string, wcfg worker.Config, log *slog.Logger) *worker.SandboxOptions {
	tools := sandbox.Probe(ctx, os.Getenv("PATH"))
	switch err := tools.Check(sandbox.Workspace); {
	case err == nil:
		log.Info("sandboxed sessions are available", "bwrap", tools.Bwrap, "socat", tools.Socat)
	case tools.Check(sandbox.WorkspaceNet) == nil:
		log.Warn("sandboxed sessions: only workspace+net is available", "reason", err)
	default:
		log.Warn("sandboxed sessions are not available", "reason", err)
	}
	return &worker.SandboxOptions{
		Dir:    filepath.Join(dataDir, "sandbox"),
		Tools:  tools,
		Agents: []worker.AgentBox{claudeBox(wcfg)},
	}
}

// claudeBox is what the claude CLI needs in a box (claude-cli.md §2):
// its config directory, its own variables (the API key or OAuth token
// among them, the quiet settings), IS_SANDBOX=1 so that it accepts
// bypassPermissions as root, and the API at ANTHROPIC_BASE_URL. Its login
// is copied in from the user's config directory.
func claudeBox(wcfg worker.Config) worker.AgentBox {
	host := claude.ConfigDir(claude.ChildEnv(wcfg.ChildEnv, wcfg.ClaudeConfigDir))
	return worker.AgentBox{
		ConfigVar: "CLAUDE_CONFIG_DIR", ConfigName: ".claude",
		Pass:        []string{"ANTHROPIC_*", "CLAUDE_*", "DISABLE_*"},
		Set:         []string{"IS_SANDBOX=1"},
		EndpointVar: "ANTHROPIC_BASE_URL", EndpointURL: "https://api.anthropic.com",
		Prepare: func(dir string, s worker.Session) error { return prepareClaude(host, dir, s) },
	}
}

// prepareClaude fills a box's claude config directory dir from the user's,
// host: the login (.credentials.json, when the user's copy is newer: the
// CLI in the box refreshes its own), and the conversation an adopted
// session resumes, when the box has none of it yet. Nothing else of the
// user's config goes in.
func prepareClaude(host, dir string, s worker.Session) error {
	if host == "" {
		return nil
	}
	if err := copyNewer(filepath.Join(host, ".credentials.json"), filepath.Join(dir, ".credentials.json")); err != nil {
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
	if err := copyNewer(src, filepath.Join(dir, rel)); err != nil {
		return fmt.Errorf("copy the adopted conversation: %w", err)
	}
	return nil
}

// copyNewer copies the regular file src to dst (mode 0600, its directory
// 0700) when src exists and dst is missing or older.
func copyNewer(src, dst string) error {
	si, err := os.Stat(src)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !si.Mode().IsRegular()) {
		return nil
	}
	if err != nil {
		return err
	}
	if di, err := os.Stat(dst); err == nil && !di.ModTime().Before(si.ModTime()) {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	tmp := dst + ".agentdesk-tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chtimes(tmp, si.ModTime(), si.ModTime()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
