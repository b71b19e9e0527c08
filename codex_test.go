package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMissingCodexWarned: a --codex that cannot be run is named in a
// warning at start (the server still starts: Claude chats and terminals
// need no Codex); a usable one gives none.
func TestMissingCodexWarned(t *testing.T) {
	const warning = "the codex CLI cannot be run"
	for _, tc := range []struct {
		name, codex string
		warn        bool
	}{
		{"missing", filepath.Join(t.TempDir(), "no-codex"), true},
		{"present", "/bin/true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, t.TempDir(), "--codex", tc.codex)
			p.stop(t, syscall.SIGTERM) // the log is complete once it exited
			log := p.stderr.String()
			if strings.Contains(log, warning) != tc.warn {
				t.Fatalf("--codex %s: warning %v, want %v; log:\n%s", tc.codex, !tc.warn, tc.warn, log)
			}
			if tc.warn && !strings.Contains(log, tc.codex) {
				t.Fatalf("the warning does not name the path:\n%s", log)
			}
		})
	}
}
