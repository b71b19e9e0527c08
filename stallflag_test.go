package main

import (
	"testing"
	"time"
)

// TestStallAfterFlag: --stall-after defaults to 5m, takes its default from
// AGENTDESK_STALL_AFTER, accepts 0 (off) and refuses a negative or
// malformed duration.
func TestStallAfterFlag(t *testing.T) {
	for _, tc := range []struct {
		name, env string
		args      []string
		want      time.Duration
		bad       bool
	}{
		{"default", "", nil, 5 * time.Minute, false},
		{"flag", "", []string{"--stall-after", "90s"}, 90 * time.Second, false},
		{"off", "", []string{"--stall-after", "0"}, 0, false},
		{"env", "2m", nil, 2 * time.Minute, false},
		{"flag over env", "2m", []string{"--stall-after", "1m"}, time.Minute, false},
		{"negative", "", []string{"--stall-after", "-1s"}, 0, true},
		{"bad env", "soon", nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("AGENTDESK_STALL_AFTER", tc.env)
			c, err := parseConfig(append([]string{"--claude", "/bin/true"}, tc.args...))
			if tc.bad {
				if err == nil {
					t.Fatalf("accepted, stallAfter %v", c.stallAfter)
				}
				return
			}
			if err != nil || c.stallAfter != tc.want {
				t.Fatalf("stallAfter %v, %v; want %v", c.stallAfter, err, tc.want)
			}
		})
	}
}
