package ptyagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// flagCLI stands in for the CLI's handling of the conversation flags: it
// knows the conversation when the file $KNOWN exists (its session file,
// wherever the CLI keeps it), refuses --session-id of a known one and
// --resume of an unknown one with the real CLI's words, and otherwise
// comes up at a prompt (and now knows the conversation).
const flagCLI = `#!/bin/sh
echo "ARGS: $*"
case "$1" in
--session-id) if [ -e "$KNOWN" ]; then echo "Error: Session ID $2 is already in use."; exit 1; fi ;;
--resume) if [ ! -e "$KNOWN" ]; then echo "No conversation found with session ID: $2"; exit 1; fi ;;
esac
touch "$KNOWN"
printf '────────────────────\r\n❯ \r\n────────────────────\r\n'
exec cat >/dev/null
`

// TestConversationFlag: the flag comes from agentdesk's record of the
// conversation (not from a session file agentdesk looks for, which a
// --claude wrapper may keep elsewhere), and when the CLI refuses it the
// worker starts the CLI once more with the other one.
func TestConversationFlag(t *testing.T) {
	const conv = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000"
	tests := []struct {
		name    string
		started bool // agentdesk's record
		known   bool // the CLI's
		args    []string
	}{
		{"new conversation", false, false, []string{"--session-id " + conv}},
		{"started conversation", true, true, []string{"--resume " + conv}},
		{"record missed the start", false, true, []string{"--session-id " + conv, "--resume " + conv}},
		{"CLI lost the conversation", true, false, []string{"--resume " + conv, "--session-id " + conv}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, writeScript(t, flagCLI))
			known := filepath.Join(t.TempDir(), "known")
			if tt.known {
				if err := os.WriteFile(known, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f.cfg.ChildEnv = append(f.cfg.ChildEnv, "KNOWN="+known)
			id := conv
			f.sess.ClaudeSessionID, f.sess.ClaudeSessionStarted = &id, tt.started
			rt := f.start(t, false)
			c := attach(t, rt, "")
			c.Until(t, waitFor, hasText("❯"))
			var got []string
			for _, l := range strings.Split(c.Out.String(), "\n") {
				if a, ok := strings.CutPrefix(strings.TrimSpace(l), "ARGS: "); ok {
					got = append(got, a)
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.args, "|") {
				t.Fatalf("CLI started with %q, want %q", got, tt.args)
			}
			info := f.waitInfo(t, func(i worker.Info) bool { return i.Status == worker.StatusRunning })
			if info.Error != nil {
				t.Errorf("worker error %q after a start that worked", *info.Error)
			}
			if rt.ConversationID() != conv {
				t.Errorf("conversation %q, want %q", rt.ConversationID(), conv)
			}
			// The record follows what the CLI said: a resumed conversation
			// has started, one started anew under its id has not yet.
			f.mu.Lock()
			started := f.sess.ClaudeSessionStarted
			f.mu.Unlock()
			if want := strings.HasPrefix(tt.args[len(tt.args)-1], "--resume"); started != want {
				t.Errorf("recorded started = %v after %q, want %v", started, got, want)
			}
			if err := rt.Input([]byte("hi\r")); err != nil {
				t.Errorf("input to the running CLI: %v", err)
			}
		})
	}
}
