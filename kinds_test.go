package main

import (
	"errors"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/agenttest"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/chat"
)

// TestChatFactoryByAgent: a chat worker of an agent this build has no
// driver for is refused, not run by another agent's driver.
func TestChatFactoryByAgent(t *testing.T) {
	f := chatFactory(map[string]worker.Factory{"": chat.Factory(agenttest.New())})
	_, err := f(t.Context(), worker.Env{Info: worker.Info{ID: "w1", Kind: worker.KindSDK, Agent: "codex"}})
	if !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("a codex chat without its driver: %v", err)
	}
}
