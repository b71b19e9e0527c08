package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/agentbox"
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
		Dir:      filepath.Join(dataDir, "sandbox"),
		Tools:    tools,
		Agents:   []worker.AgentBox{agentbox.Claude(wcfg)},
		ReadOnly: installDirs(wcfg.ClaudePath),
	}
}

// installDirs is the directory of the claude CLI, as it will run (links
// resolved): every box reads it. The box would bind it at each start
// anyway; named here, the session's view lists it. Nothing when the CLI is
// missing, or sits in the user's home itself (a box never shows that: its
// starts fail, saying so).
func installDirs(claudePath string) []string {
	p, err := claude.Resolve(claudePath)
	if err != nil {
		return nil
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return nil
	}
	dir := filepath.Dir(p)
	if home, err := os.UserHomeDir(); err == nil && dir == filepath.Clean(home) {
		return nil
	}
	return []string{dir}
}
