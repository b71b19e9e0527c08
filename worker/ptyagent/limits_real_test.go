package ptyagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
)

// toolNames are the names of a request's tools.
func toolNames(r fakeapi.Request) []string {
	tools, _ := r.Body["tools"].([]any)
	var out []string
	for _, tl := range tools {
		if m, ok := tl.(map[string]any); ok {
			name, _ := m["name"].(string)
			out = append(out, name)
		}
	}
	return out
}

// TestRealCLILimits: the real TUI in a PTY gets the worker's limits: the
// appended prompt reaches the fake API's request, a disallowed tool is
// not offered in its tools, an added directory is named in its
// environment, and the session's MCP server runs (with its environment).
// A resumed conversation gets the session's new prompt, not the one it
// began with.
func TestRealCLILimits(t *testing.T) {
	path := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	f := newFixture(t, path)
	f.cfg.ChildEnv = api.ClaudeEnv(f.home)
	extra := t.TempDir()
	mark := filepath.Join(t.TempDir(), "mcp-started")
	f.info.Limits = worker.Limits{AppendSystemPrompt: "PTY-MARKER-ONE", DisallowedTools: []string{"Bash"}, AddDirs: []string{extra}}
	f.sess.MCPServers = []worker.MCPServer{{Name: "ext", Type: worker.MCPStdio, Command: "/bin/sh",
		Args: []string{"-c", `printenv EXT_TOKEN > "$0"; exec cat >/dev/null`, mark}, Env: map[string]string{"EXT_TOKEN": "secret-26"}, Enabled: true}}
	first := f.start(t, false)
	c := attach(t, first, "")
	waitPrompt(t, f, first)
	converse(t, first, c, "hello limits", "Echo: hello limits")
	req := api.MessageRequests()[len(api.MessageRequests())-1]
	body := string(req.RawBody)
	if !strings.Contains(body, "PTY-MARKER-ONE") {
		t.Error("the appended prompt is not in the request")
	}
	if !strings.Contains(body, "Additional working directories") || !strings.Contains(body, extra) {
		t.Errorf("the added directory %s is not in the request", extra)
	}
	names := toolNames(req)
	if len(names) == 0 || strings.Contains(","+strings.Join(names, ",")+",", ",Bash,") {
		t.Errorf("request tools %v: want some, without Bash", names)
	}
	poll(t, func() bool {
		b, err := os.ReadFile(mark)
		return err == nil && strings.TrimSpace(string(b)) == "secret-26"
	})
	if err := first.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}

	// The next agent worker resumes with a changed prompt.
	f.info = worker.Info{ID: "w2", SessionID: "s1", Kind: worker.KindPTYAgent,
		Limits: worker.Limits{AppendSystemPrompt: "PTY-MARKER-TWO"}}
	second := f.start(t, false)
	c2 := attach(t, second, "")
	waitPrompt(t, f, second)
	converse(t, second, c2, "and again", "Echo: and again")
	body = string(api.MessageRequests()[len(api.MessageRequests())-1].RawBody)
	if !strings.Contains(body, "PTY-MARKER-TWO") || strings.Contains(body, "PTY-MARKER-ONE") {
		t.Errorf("resumed request: new prompt %v, old prompt %v; want only the new",
			strings.Contains(body, "PTY-MARKER-TWO"), strings.Contains(body, "PTY-MARKER-ONE"))
	}
}

// TestRealCLIInteractiveIgnoresTurnsAndBudget records why the terminal
// view does not pass the turn and budget limits: the interactive CLI
// takes --max-turns and --max-budget-usd and ignores them (its --help:
// "only works with --print"). With --max-turns 1 a turn that runs a tool
// still makes its follow-up request; with a budget below one request's
// cost every request is still made. Should a later CLI honour them, this
// fails, and the terminal view can pass them (command.go, limits).
// Screens: testdata/interactive_limits.txt.
func TestRealCLIInteractiveIgnoresTurnsAndBudget(t *testing.T) {
	real := fakeapi.RequireClaude(t)
	for _, flag := range []string{"--max-turns 1", "--max-budget-usd 0.0001"} {
		t.Run(flag, func(t *testing.T) {
			api := fakeapi.New(t)
			wrap := writeScript(t, "#!/bin/sh\nexec "+real+" \"$@\" "+flag+"\n")
			f := newFixture(t, wrap)
			f.cfg.ChildEnv = api.ClaudeEnv(f.home)
			f.info.AllowedTools = []string{"Bash(ls)"}
			rt := f.start(t, false)
			c := attach(t, rt, "")
			waitPrompt(t, f, rt)
			converse(t, rt, c, "bash:ls", "Tool finished")
			converse(t, rt, c, "hello again", "Echo: hello again")
			if n := len(api.MessageRequests()); n != 3 {
				t.Errorf("%d requests, want 3 (the tool's follow-up and the next message): the TUI honours %s now?\n%s", n, flag, rt.Screen())
			}
		})
	}
}
