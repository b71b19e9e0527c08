package main

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/agent/codex"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/chat"
	"github.com/agentdesk/agentdesk/worker/files"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

// agentPaths name the agents' CLIs ("" for the default: found on PATH).
type agentPaths struct{ claude, codex string }

// factories lists the worker kinds this build supports. The chat kind
// (API kind sdk) is the chat engine with the driver of the worker's agent
// (worker.Info.Agent): the claude CLI, or Codex for agent "codex".
func factories(p agentPaths) map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{
		worker.KindGitDiff:  gitdiff.New,
		worker.KindTerminal: terminal.New,
		worker.KindSDK: chatFactory(map[string]agent.Driver{
			"":                claude.NewDriver(claude.Config{Path: p.claude}),
			worker.AgentCodex: codex.NewDriver(codex.Config{Path: p.codex}),
		}),
		worker.KindPTYAgent: ptyagent.New,
		worker.KindFiles:    files.New,
	}
}

// chatFactory is the chat engine with one driver per agent, picked by the
// worker's agent.
func chatFactory(drivers map[string]agent.Driver) worker.Factory {
	byAgent := make(map[string]worker.Factory, len(drivers))
	for name, d := range drivers {
		byAgent[name] = chat.Factory(d)
	}
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
