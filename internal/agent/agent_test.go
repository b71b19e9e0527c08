package agent_test

import (
	"errors"
	"fmt"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/agent"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestNewError: a driver's own error keeps its text and matches the
// contract's sentinel, also wrapped.
func TestNewError(t *testing.T) {
	err := agent.NewError(agent.ErrExited, "claude process exited")
	if err.Error() != "claude process exited" {
		t.Errorf("text %q", err)
	}
	wrapped := fmt.Errorf("write stdin: %w", err)
	if !errors.Is(wrapped, agent.ErrExited) || !errors.Is(wrapped, err) || errors.Is(wrapped, agent.ErrNotFound) {
		t.Errorf("%v does not match as it should", wrapped)
	}
}

func TestSettingsMerge(t *testing.T) {
	s := agent.Settings{Model: "opus", PermissionMode: "default"}
	got := s.Merge(agent.Settings{PermissionMode: "plan"})
	if got != (agent.Settings{Model: "opus", PermissionMode: "plan"}) {
		t.Errorf("merge: %+v", got)
	}
	if s.Merge(agent.Settings{}) != s {
		t.Error("an empty report changed the settings")
	}
}
