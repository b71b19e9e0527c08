package usage

import (
	"bytes"
	"encoding/json"
)

// RateLimit is the subscription limiter's state as the CLI last reported
// it in a rate_limit_event line. Status is "allowed", "allowed_warning"
// (the CLI's own warning: a window's utilization is high for the time
// left) or "rejected"; Type names the window ("five_hour", "seven_day",
// …); ResetsAt is its reset, in Unix seconds; Utilization is a fraction
// (0..1) when the CLI sent one. Raw is the event's whole rate_limit_info,
// kept for fields this type does not name (overage, scope).
type RateLimit struct {
	Status      string          `json:"status"`
	Type        string          `json:"rateLimitType,omitempty"`
	ResetsAt    int64           `json:"resetsAt,omitempty"`
	Utilization *float64        `json:"utilization,omitempty"`
	Raw         json.RawMessage `json:"info,omitempty"`
}

// ParseRateLimit reads a rate_limit_event line. It reports false for any
// other line, or one without a status.
func ParseRateLimit(line []byte) (RateLimit, bool) {
	if !bytes.Contains(line, []byte(`"rate_limit_event"`)) {
		return RateLimit{}, false // most lines: no decode
	}
	var ev struct {
		Type string          `json:"type"`
		Info json.RawMessage `json:"rate_limit_info"`
	}
	if json.Unmarshal(line, &ev) != nil || ev.Type != "rate_limit_event" {
		return RateLimit{}, false
	}
	var rl RateLimit
	if json.Unmarshal(ev.Info, &rl) != nil || rl.Status == "" {
		return RateLimit{}, false
	}
	rl.Raw = ev.Info
	return rl, true
}
