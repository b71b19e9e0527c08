package chat

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/internal/usage"
	"github.com/agentdesk/agentdesk/worker"
)

// The meter reads the nested form of the CLI's rate_limit_event (issue
// 22, item 7): with per-window readings from the API the CLI 2.1.330
// puts the figures under unifiedWindows, and the state the manager gets
// must still say 85% of the 5-hour window, not nothing.
func TestRealMeterNestedWindows(t *testing.T) {
	s := newReal(t)
	var env []string
	for _, kv := range s.api.ClaudeEnv(s.home) {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	env = append(env, "CLAUDE_CODE_OAUTH_TOKEN="+fakeapi.FakeOAuthToken)
	h := newHarness(t, harnessOptions{path: s.path, baseEnv: env, cwd: s.cwd})
	a := attach(t, h.rt, "")
	send(t, h, "windows please")
	a.until(isResult)
	var rl usage.RateLimit
	h.waitInfo(func(worker.Info) bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.rateLimit != nil {
			rl = *h.rateLimit
		}
		return h.rateLimit != nil
	})
	if rl.Type != "five_hour" || rl.Utilization == nil || *rl.Utilization != 0.85 {
		t.Fatalf("meter state %+v, want five_hour at 0.85", rl)
	}
	if w := rl.Windows["seven_day"]; w.Utilization == nil || *w.Utilization != 0.3 {
		t.Errorf("7-day window %+v, want 0.3", w)
	}
}
