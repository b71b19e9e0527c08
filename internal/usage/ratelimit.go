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
// (0..1) when the CLI sent one. Windows are the per-window readings
// (utilization, reset, status of each of "five_hour", "seven_day", …)
// when the CLI sent them. Raw is the event's whole rate_limit_info, kept
// for fields this type does not name (overage, scope).
type RateLimit struct {
	Status      string            `json:"status"`
	Type        string            `json:"rateLimitType,omitempty"`
	ResetsAt    int64             `json:"resetsAt,omitempty"`
	Utilization *float64          `json:"utilization,omitempty"`
	Windows     map[string]Window `json:"unifiedWindows,omitempty"`
	Raw         json.RawMessage   `json:"info,omitempty"`
}

// Window is one window's reading.
type Window struct {
	Utilization *float64 `json:"utilization,omitempty"`
	ResetsAt    int64    `json:"resetsAt,omitempty"`
	Status      string   `json:"status,omitempty"`
}

// ParseRateLimit reads a rate_limit_event line. It reports false for any
// other line, or one without a status.
//
// The CLI 2.1.330 writes it in two forms. Without per-window readings the
// figures are at the top of rate_limit_info (utilization of the window
// rateLimitType names). When the API sent per-window headers
// (anthropic-ratelimit-unified-5h-utilization, …-7d-…, each with a reset
// within the year), the top has no utilization and the windows are
// nested under unifiedWindows.{five_hour,seven_day,…}. Both read the
// same: a missing top utilization is taken from the window rateLimitType
// names, else from the fullest window (whose type and reset then go to
// the top when missing too).
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
	rl.fromWindows()
	return rl, true
}

// fromWindows fills the top figures from the nested windows.
func (rl *RateLimit) fromWindows() {
	if rl.Utilization != nil || len(rl.Windows) == 0 {
		return
	}
	name, w, ok := rl.Type, Window{}, false
	if name != "" {
		w, ok = rl.Windows[name]
		ok = ok && w.Utilization != nil
	}
	if !ok {
		name, w, ok = fullest(rl.Windows)
	}
	if !ok {
		return
	}
	u := *w.Utilization
	rl.Utilization = &u
	if rl.Type == "" {
		rl.Type = name
	}
	if rl.ResetsAt == 0 {
		rl.ResetsAt = w.ResetsAt
	}
}

// fullest returns the window with the highest utilization (by name on a
// tie, so the choice does not depend on map order).
func fullest(ws map[string]Window) (string, Window, bool) {
	var name string
	var best Window
	for n, w := range ws {
		if w.Utilization == nil {
			continue
		}
		if best.Utilization == nil || *w.Utilization > *best.Utilization ||
			(*w.Utilization == *best.Utilization && n < name) {
			name, best = n, w
		}
	}
	return name, best, best.Utilization != nil
}
