package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/agentbox"
)

// sandboxOptions are the sandboxed sessions' settings: bwrap and socat as
// found now (said in the log: GET /api/capabilities says it too), the
// per-session homes under the data dir, and what each agent needs in a
// box.
func sandboxOptions(ctx context.Context, dataDir string, wcfg worker.Config, codexPath string, log *slog.Logger) *worker.SandboxOptions {
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
		Agents:   []worker.AgentBox{agentbox.Claude(wcfg), agentbox.Codex(wcfg, log)},
		ReadOnly: append(installDirs(wcfg.ClaudePath), codexInstallDirs(codexPath)...),
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
	return realDir(p, filepath.Dir)
}

// codexInstallDirs is the directory of Codex's CLI, as it will run: for
// npm's package (.../@openai/codex/bin/codex.js, a node script that runs
// the native binary of its platform package, @openai/codex-linux-<arch>,
// found beside it) the @openai directory holding both; else the
// program's own directory. The same exceptions as installDirs.
func codexInstallDirs(codexPath string) []string {
	p, err := codex.Resolve(codexPath)
	if err != nil {
		return nil
	}
	return realDir(p, func(real string) string {
		bin := filepath.Dir(real)
		pkg := filepath.Dir(bin)
		if scope := filepath.Dir(pkg); filepath.Base(bin) == "bin" && filepath.Base(pkg) == "codex" && filepath.Base(scope) == "@openai" {
			return scope
		}
		return bin
	})
}

// realDir is dir of the program p, its links resolved; nothing when it
// cannot be resolved or is the user's home.
func realDir(p string, dir func(real string) string) []string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil
	}
	d := dir(real)
	if home, err := os.UserHomeDir(); err == nil && d == filepath.Clean(home) {
		return nil
	}
	return []string{d}
}
