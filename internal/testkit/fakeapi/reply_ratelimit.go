package fakeapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// FakeOAuthToken is a subscription token the fake accepts. A request
// that carries a bearer token (CLAUDE_CODE_OAUTH_TOKEN → "Authorization:
// Bearer …") is answered with the anthropic-ratelimit-unified-* headers
// the CLI reads only for subscription logins (claude-cli.md, "Rate
// limits"); a request with an API key gets none, like the real API's
// answer to a key on a plan without the unified limiter.
const FakeOAuthToken = "sk-ant-oat01-fake"

// RateLimitReset is the reset time the fake announces for both windows:
// a fixed instant, so recordings and tests can compare it.
var RateLimitReset = time.Date(2030, 1, 2, 15, 0, 0, 0, time.UTC)

// rateLimitHeaders sets the unified limiter's headers on a bearer-token
// request and reports whether the request is refused (a 429 follows).
// The prompt's keyword picks the state:
//
//   - "nearlimit": allowed_warning, 5-hour utilization 0.92 (the CLI
//     warns from 0.9 on);
//   - "overlimit": rejected (HTTP 429 rate_limit_error), utilization 1;
//   - "windows": allowed, 5-hour utilization 0.85 and 7-day 0.3, each
//     with a reset within the year (see windowResets), for which the
//     CLI 2.1.330 reports the windows nested under unifiedWindows;
//   - anything else: allowed, 5-hour utilization 0.42.
//
// The 7-day window is otherwise always at 0.1, under every warning
// threshold.
func rateLimitHeaders(w http.ResponseWriter, r *http.Request, prompt string) (rejected bool) {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		return false
	}
	status, util := "allowed", "0.42"
	reset := strconv.FormatInt(RateLimitReset.Unix(), 10)
	switch words := strings.ToLower(prompt); {
	case strings.Contains(words, "overlimit"):
		status, util, rejected = "rejected", "1", true
	case strings.Contains(words, "nearlimit"):
		status, util = "allowed_warning", "0.92"
	case strings.Contains(words, "windows"):
		windowHeaders(w.Header(), time.Now())
		return false
	}
	h := w.Header()
	h.Set("anthropic-ratelimit-unified-status", status)
	h.Set("anthropic-ratelimit-unified-reset", reset)
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("anthropic-ratelimit-unified-5h-status", status)
	h.Set("anthropic-ratelimit-unified-5h-utilization", util)
	h.Set("anthropic-ratelimit-unified-5h-reset", reset)
	h.Set("anthropic-ratelimit-unified-7d-status", "allowed")
	h.Set("anthropic-ratelimit-unified-7d-utilization", "0.1")
	h.Set("anthropic-ratelimit-unified-7d-reset", reset)
	h.Set("anthropic-ratelimit-unified-overage-status", "rejected")
	h.Set("anthropic-ratelimit-unified-overage-disabled-reason", "out_of_credits")
	h.Set("anthropic-ratelimit-unified-fallback", "unavailable")
	return rejected
}

// rateLimitedPlan is the reply to a refused request.
func rateLimitedPlan() plan {
	return plan{kind: "ratelimited", status: http.StatusTooManyRequests,
		errType: "rate_limit_error", errMsg: "fake: usage limit reached"}
}

// WindowResets returns the resets the fake announces for the 5-hour and
// 7-day windows of a "windows" request at now: the next full hour plus 2
// hours, and plus 3 days. The CLI keeps a window's reading only when its
// reset lies within the year ahead, so RateLimitReset (years ahead) would
// hide the nested windows.
func WindowResets(now time.Time) (fiveHour, sevenDay time.Time) {
	hour := now.Truncate(time.Hour).Add(time.Hour)
	return hour.Add(2 * time.Hour), hour.Add(3 * 24 * time.Hour)
}

// windowHeaders sets the headers of a "windows" request: both windows
// read per window (utilization, reset, status), the 5-hour one at 85%.
func windowHeaders(h http.Header, now time.Time) {
	five, seven := WindowResets(now)
	h.Set("anthropic-ratelimit-unified-status", "allowed")
	h.Set("anthropic-ratelimit-unified-reset", strconv.FormatInt(five.Unix(), 10))
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("anthropic-ratelimit-unified-5h-status", "allowed")
	h.Set("anthropic-ratelimit-unified-5h-utilization", "0.85")
	h.Set("anthropic-ratelimit-unified-5h-reset", strconv.FormatInt(five.Unix(), 10))
	h.Set("anthropic-ratelimit-unified-7d-status", "allowed")
	h.Set("anthropic-ratelimit-unified-7d-utilization", "0.3")
	h.Set("anthropic-ratelimit-unified-7d-reset", strconv.FormatInt(seven.Unix(), 10))
	h.Set("anthropic-ratelimit-unified-overage-status", "rejected")
	h.Set("anthropic-ratelimit-unified-overage-disabled-reason", "out_of_credits")
	h.Set("anthropic-ratelimit-unified-fallback", "unavailable")
}
