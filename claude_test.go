package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMissingClaudeWarned: a --claude that cannot be run is named in a
// warning at start (the server still starts: terminals need no CLI); a
// usable one gives none.
func TestMissingClaudeWarned(t *testing.T) {
	const warning = "the claude CLI cannot be run"
	for _, tc := range []struct {
		name, claude string
		warn         bool
	}{
		{"missing", filepath.Join(t.TempDir(), "no-claude"), true},
		{"present", "/bin/true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, t.TempDir(), "--claude", tc.claude)
			p.stop(t, syscall.SIGTERM) // the log is complete once it exited
			log := p.stderr.String()
			if strings.Contains(log, warning) != tc.warn {
				t.Fatalf("--claude %s: warning %v, want %v; log:\n%s", tc.claude, !tc.warn, tc.warn, log)
			}
			if tc.warn && !strings.Contains(log, tc.claude) {
				t.Fatalf("the warning does not name the path:\n%s", log)
			}
		})
	}
}
