package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"

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
		Dir:    filepath.Join(dataDir, "sandbox"),
		Tools:  tools,
		Agents: []worker.AgentBox{agentbox.Claude(wcfg)},
	}
}
