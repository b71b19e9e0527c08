package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/chat"
	"github.com/agentdesk/agentdesk/worker/files"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

// agentPaths name the agents' CLIs ("" for the default: found on PATH),
// and where Codex chats keep their homes.
type agentPaths struct {
	claude, codex string
	// codexHomes holds a CODEX_HOME per session ("": the user's own);
	// codexSeed is the user's CODEX_HOME they are seeded from.
	codexHomes, codexSeed string
}

// factories lists the worker kinds this build supports. The chat kind
// (API kind sdk) is the chat engine with the driver of the worker's agent
// (worker.Info.Agent): the claude CLI, or Codex for agent "codex".
func factories(p agentPaths) map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{
		worker.KindGitDiff:  gitdiff.New,
		worker.KindTerminal: terminal.New,
		worker.KindSDK: chatFactory(map[string]worker.Factory{
			"":                chat.Factory(claude.NewDriver(claude.Config{Path: p.claude})),
			worker.AgentCodex: codexChat(codex.Config{Path: p.codex, Seed: p.codexSeed}, p.codexHomes),
		}),
		worker.KindPTYAgent: ptyagent.New,
		worker.KindFiles:    files.New,
	}
}

// codexChat is the chat engine with Codex's driver, configured per
// session: a session's Codex chats run with CODEX_HOME homes/<session id>
// (prepared by the driver, seeded from c.Seed; removed with the session,
// worker.Options.SessionDirs), where Codex keeps their threads, so
// thread/resume finds them after a restart. A sandboxed session's chats
// run in its box, with the box's private home (CODEX_HOME, prepared by
// agentbox.Codex; homes is outside the box), and without Codex's own
// sandbox: the box is theirs (docs/api-extensions.md, "Codex chats").
func codexChat(c codex.Config, homes string) worker.Factory {
	return func(ctx context.Context, env worker.Env) (worker.Runtime, error) {
		cfg := c
		switch {
		case env.Session.Sandboxed():
			cfg.Sandbox = codex.FullAccess
		case homes != "":
			cfg.Home = filepath.Join(homes, env.Info.SessionID)
		}
		return chat.Factory(codex.NewDriver(cfg))(ctx, env)
	}
}

// chatFactory is the chat engine's factory per agent, picked by the
// worker's agent.
func chatFactory(byAgent map[string]worker.Factory) worker.Factory {
	return func(ctx context.Context, env worker.Env) (worker.Runtime, error) {
		f, ok := byAgent[env.Info.Agent]
		if !ok {
			return nil, fmt.Errorf("a chat with agent %q: this build has no such agent: %w", env.Info.Agent, worker.ErrInvalid)
		}
		return f(ctx, env)
	}
}

// validators lists the kinds that check a new worker's options before it
// is stored, so that a refused request changes nothing.
func validators() map[worker.Kind]worker.Validator {
	return map[worker.Kind]worker.Validator{
		worker.KindGitDiff: gitdiff.Validate,
	}
}
