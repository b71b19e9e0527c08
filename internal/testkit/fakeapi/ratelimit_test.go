package fakeapi_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

func messagesRequest(t *testing.T, s *fakeapi.Server, prompt string, auth ...string) *http.Response {
	t.Helper()
	body := `{"model":"m","stream":false,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"` + prompt + `"}]}`
	req, _ := http.NewRequestWithContext(t.Context(), "POST", s.URL()+"/v1/messages", strings.NewReader(body))
	for i := 0; i+1 < len(auth); i += 2 {
		req.Header.Set(auth[i], auth[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestRateLimitHeaders: a bearer token (a subscription login) gets the
// unified limiter's headers, the prompt picks the state, and an API key
// gets none.
func TestRateLimitHeaders(t *testing.T) {
	s := fakeapi.New(t)
	reset := strconv.FormatInt(fakeapi.RateLimitReset.Unix(), 10)
	bearer := []string{"Authorization", "Bearer " + fakeapi.FakeOAuthToken}
	for _, c := range []struct {
		prompt, status, util string
		code                 int
	}{
		{"hello", "allowed", "0.42", 200},
		{"nearlimit please", "allowed_warning", "0.92", 200},
		{"overlimit please", "rejected", "1", 429},
	} {
		resp := messagesRequest(t, s, c.prompt, bearer...)
		h := resp.Header
		if resp.StatusCode != c.code || h.Get("anthropic-ratelimit-unified-status") != c.status ||
			h.Get("anthropic-ratelimit-unified-5h-utilization") != c.util ||
			h.Get("anthropic-ratelimit-unified-reset") != reset ||
			h.Get("anthropic-ratelimit-unified-representative-claim") != "five_hour" {
			t.Errorf("%s: %d %v", c.prompt, resp.StatusCode, h)
		}
	}
	// "windows": per-window readings whose resets lie within the year
	// (the request may cross a full hour: either reset is right).
	five, seven := fakeapi.WindowResets(time.Now())
	h := messagesRequest(t, s, "windows please", bearer...).Header
	fiveAfter, _ := fakeapi.WindowResets(time.Now())
	got := h.Get("anthropic-ratelimit-unified-5h-reset")
	if h.Get("anthropic-ratelimit-unified-5h-utilization") != "0.85" || h.Get("anthropic-ratelimit-unified-7d-utilization") != "0.3" ||
		h.Get("anthropic-ratelimit-unified-5h-status") != "allowed" || seven.Sub(five) != 70*time.Hour ||
		(got != strconv.FormatInt(five.Unix(), 10) && got != strconv.FormatInt(fiveAfter.Unix(), 10)) {
		t.Errorf("windows: %v", h)
	}
	resp := messagesRequest(t, s, "overlimit please", "X-Api-Key", fakeapi.FakeKey)
	if resp.StatusCode != 200 || resp.Header.Get("anthropic-ratelimit-unified-status") != "" {
		t.Errorf("API key: %d %v, want 200 without limiter headers", resp.StatusCode, resp.Header)
	}
}

// TestClaudeEnvDropsCallersToken: a subscription token in the test's own
// environment never reaches the CLI under test; a test adds the fake one
// itself.
func TestClaudeEnvDropsCallersToken(t *testing.T) {
	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-real-one")
	s := fakeapi.New(t)
	env := s.ClaudeEnv(t.TempDir())
	if i := slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_OAUTH_TOKEN=") }); i >= 0 {
		t.Errorf("ClaudeEnv carries %q", env[i])
	}
}
