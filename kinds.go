package main

import (
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/chat"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

// factories lists the worker kinds this build supports.
func factories() map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{
		worker.KindGitDiff:  gitdiff.New,
		worker.KindTerminal: terminal.New,
		worker.KindSDK:      chat.New,
		worker.KindPTYAgent: ptyagent.New,
	}
}

// validators lists the kinds that check a new worker's options before it
// is stored, so that a refused request changes nothing.
func validators() map[worker.Kind]worker.Validator {
	return map[worker.Kind]worker.Validator{
		worker.KindGitDiff: gitdiff.Validate,
	}
}
