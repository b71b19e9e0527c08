package usage_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/internal/usage"
)

// windowsRecording is the CLI's whole stdout for a turn whose API answer
// carried per-window readings with near resets (fakeapi's "windows"):
// CLI 2.1.330 nests the figures under rate_limit_info.unifiedWindows and
// leaves the top without a utilization.
const windowsRecording = "ratelimit_windows.jsonl"

// checkWindows checks the state of a "windows" turn: the 5-hour window at
// 85% (the meter's figure, read from the nested form), the 7-day one at
// 30%, their resets as the fake announces them (70 hours apart; the top's
// reset is the 5-hour one's).
func checkWindows(t *testing.T, what string, rl usage.RateLimit) {
	t.Helper()
	five, seven := rl.Windows["five_hour"], rl.Windows["seven_day"]
	if rl.Status != "allowed" || rl.Type != "five_hour" || rl.Utilization == nil || *rl.Utilization != 0.85 {
		t.Errorf("%s: top %q %q %v, want allowed five_hour 0.85", what, rl.Status, rl.Type, rl.Utilization)
	}
	if five.Utilization == nil || *five.Utilization != 0.85 || five.Status != "allowed" ||
		seven.Utilization == nil || *seven.Utilization != 0.3 || seven.Status != "allowed" {
		t.Errorf("%s: windows %+v", what, rl.Windows)
	}
	if rl.ResetsAt != five.ResetsAt || time.Duration(seven.ResetsAt-five.ResetsAt)*time.Second != 70*time.Hour {
		t.Errorf("%s: resets top %d, 5h %d, 7d %d", what, rl.ResetsAt, five.ResetsAt, seven.ResetsAt)
	}
}

// TestNestedWindowsRecorded reads the recording: the meter's utilization
// comes from the nested window when the top has none.
func TestNestedWindowsRecorded(t *testing.T) {
	rl := eventIn(t, readLines(t, windowsRecording))
	if _, top := rawField(t, rl.Raw, "utilization"); top {
		t.Fatal("the recording has a top-level utilization: it does not show the nested form")
	}
	checkWindows(t, windowsRecording, rl)
}

// TestNestedWindowsForms: both forms, and a nested form whose
// rateLimitType names no window with a reading.
func TestNestedWindowsForms(t *testing.T) {
	tests := []struct {
		line string
		typ  string
		util float64
	}{
		{`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","rateLimitType":"five_hour","utilization":0.4,"resetsAt":3,"unifiedWindows":{"five_hour":{"utilization":0.9,"resetsAt":5}}}}`, "five_hour", 0.4},
		{`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","rateLimitType":"seven_day","unifiedWindows":{"five_hour":{"utilization":0.9,"resetsAt":5},"seven_day":{"utilization":0.2,"resetsAt":9}}}}`, "seven_day", 0.2},
		{`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","rateLimitType":"overage","unifiedWindows":{"five_hour":{"utilization":0.5,"resetsAt":5},"seven_day":{"utilization":0.7,"resetsAt":9}}}}`, "overage", 0.7},
		{`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed","unifiedWindows":{"five_hour":{"utilization":0.5,"resetsAt":5},"seven_day":{"utilization":0.7,"resetsAt":9}}}}`, "seven_day", 0.7},
	}
	for _, tt := range tests {
		rl, ok := usage.ParseRateLimit([]byte(tt.line))
		if !ok || rl.Type != tt.typ || rl.Utilization == nil || *rl.Utilization != tt.util || rl.ResetsAt == 0 {
			t.Errorf("%s: %+v", tt.line, rl)
		}
	}
}

// TestRealCLINestedWindows runs the pinned CLI against per-window headers
// and checks the rate_limit_event it prints; AGENTDESK_RECORD=1 rewrites
// the recording.
func TestRealCLINestedWindows(t *testing.T) {
	bin := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	home := t.TempDir()
	if err := os.MkdirAll(home+"/.claude", 0o700); err != nil {
		t.Fatal(err)
	}
	lines := runOneShot(t, bin, oauthEnv(api, home), "windows please")
	if os.Getenv("AGENTDESK_RECORD") == "1" {
		writeRecording(t, windowsRecording, lines)
	}
	checkWindows(t, "live", eventIn(t, lines))
}

// rawField reports whether the JSON object raw has the key.
func rawField(t *testing.T, raw []byte, key string) (json.RawMessage, bool) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	v, ok := m[key]
	return v, ok
}
