package claude_test

import (
	"slices"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// TestChildEnvKeepsSubscriptionToken: a user logged in with a subscription
// token (CLAUDE_CODE_OAUTH_TOKEN) keeps it in the CLI's environment, so the
// CLI reports rate limits; agentdesk's own variables still go.
func TestChildEnvKeepsSubscriptionToken(t *testing.T) {
	base := []string{"PATH=/bin", "CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-x", "AGENTDESK_TOKEN=secret"}
	env := claude.ChildEnv(base, "")
	if !slices.Contains(env, "CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-x") {
		t.Errorf("token dropped: %q", env)
	}
	if slices.Contains(env, "AGENTDESK_TOKEN=secret") {
		t.Errorf("agentdesk's token passed on: %q", env)
	}
}
