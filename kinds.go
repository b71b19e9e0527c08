package main

import (
	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/chat"
	"github.com/agentdesk/agentdesk/worker/files"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

// factories lists the worker kinds this build supports. The chat kind
// (API kind sdk) is the chat engine with the agent driver that runs its
// conversations: the claude CLI at claudePath ("" for claude on PATH).
func factories(claudePath string) map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{
		worker.KindGitDiff:  gitdiff.New,
		worker.KindTerminal: terminal.New,
		worker.KindSDK:      chat.Factory(claude.NewDriver(claude.Config{Path: claudePath})),
		worker.KindPTYAgent: ptyagent.New,
		worker.KindFiles:    files.New,
	}
}

// validators lists the kinds that check a new worker's options before it
// is stored, so that a refused request changes nothing.
func validators() map[worker.Kind]worker.Validator {
	return map[worker.Kind]worker.Validator{
		worker.KindGitDiff: gitdiff.Validate,
	}
}
