package ptyagent_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
)

// The terminal view starts with what the person chose for the
// conversation (issue 22, item 1): the permission mode, the model and the
// session's "Always allow" rules, as the chat's CLI does. The real CLI
// shows the mode in its footer and runs an allowed command without
// asking.
func TestRealCLIStartsWithChosenSettings(t *testing.T) {
	path := fakeapi.RequireClaude(t)
	tests := []struct {
		name, mode string
		footer     string // the TUI's words for the mode
	}{
		{"plan", "plan", "plan mode on"},
		{"accept edits", "acceptEdits", "accept edits on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := fakeapi.New(t)
			f := newFixture(t, path)
			f.cfg.ChildEnv = api.ClaudeEnv(f.home)
			f.info.Model, f.info.PermissionMode = "haiku", tt.mode
			rt := f.start(t, false)
			attach(t, rt, "")
			waitPrompt(t, f, rt)
			poll(t, func() bool { return strings.Contains(rt.Screen(), tt.footer) })
		})
	}
	t.Run("rules", func(t *testing.T) {
		api := fakeapi.New(t)
		f := newFixture(t, path)
		f.cfg.ChildEnv = api.ClaudeEnv(f.home)
		// Nothing chosen: the chat this view took over ran in "Ask before
		// edits" (the stream-json CLI's default), and so does the TUI.
		f.info.Current = &worker.Current{PermissionMode: "default"}
		f.info.AllowedTools = []string{"Bash(touch by-tool)"}
		f.sess.PermissionRules = []worker.Rule{
			{ID: "r1", ToolName: "Bash", RuleContent: "touch by-rule", Destination: "session"},
			{ID: "r2", ToolName: "Bash", RuleContent: "touch never", Destination: "localSettings"},
		}
		rt := f.start(t, false)
		c := attach(t, rt, "")
		waitPrompt(t, f, rt)
		for _, name := range []string{"by-rule", "by-tool"} {
			converse(t, rt, c, "bash: touch "+name, "Tool finished")
			if _, err := os.Stat(filepath.Join(f.cwd, name)); err != nil {
				t.Fatalf("the allowed command did not run: %v\n%s", err, rt.Screen())
			}
		}
		if slices.Contains(activities(c), "asking") {
			t.Errorf("the CLI asked for an allowed command:\n%s", rt.Screen())
		}
		// In "Ask before edits" a command no rule allows asks first (the
		// TUI's own default, auto mode, would run it).
		send(t, rt, "bash: touch unruled")
		c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "asking" })
		if _, err := os.Stat(filepath.Join(f.cwd, "unruled")); err == nil {
			t.Error("a command no rule allows ran without asking")
		}
	})
}
