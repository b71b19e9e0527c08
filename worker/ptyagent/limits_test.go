package ptyagent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// argsCLI writes its arguments, one a line, to $ARGFILE, then comes up at
// a prompt.
const argsCLI = `#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$ARGFILE"
printf '────────────────────\r\n❯ \r\n────────────────────\r\n'
exec cat >/dev/null
`

// startArgs starts the worker of f with argsCLI and returns the CLI's
// arguments.
func startArgs(t *testing.T, f *fixture) []string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "args")
	f.cfg.ChildEnv = append(f.cfg.ChildEnv, "ARGFILE="+file)
	rt := f.start(t, false)
	c := attach(t, rt, "")
	c.Until(t, waitFor, hasText("❯"))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// flagValue is the value after flag in args, "" when absent.
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// TestLimitsReachTheCLI: the terminal view's CLI gets the worker's limits
// and the session's enabled MCP servers as the interactive CLI takes
// them; the turn and budget limits, which it ignores, are not passed.
func TestLimitsReachTheCLI(t *testing.T) {
	extra := t.TempDir()
	f := newFixture(t, writeScript(t, argsCLI))
	f.info.Limits = worker.Limits{AppendSystemPrompt: "Be brief.", MaxTurns: 3, MaxBudgetUSD: 1.5,
		DisallowedTools: []string{"WebFetch", "Bash(rm *)"}, AddDirs: []string{extra}}
	f.sess.MCPServers = []worker.MCPServer{
		{Name: "on", Type: worker.MCPStdio, Command: "/bin/true", Env: map[string]string{"TOKEN": "t1"}, Enabled: true},
		{Name: "off", Type: worker.MCPHTTP, URL: "http://127.0.0.1:1/mcp", Enabled: false},
	}
	args := startArgs(t, f)
	for flag, want := range map[string]string{
		"--append-system-prompt": "Be brief.",
		"--disallowedTools":      "WebFetch,Bash(rm *)",
		"--add-dir":              extra,
	} {
		if got := flagValue(args, flag); got != want {
			t.Errorf("%s %q, want %q (args %q)", flag, got, want, args)
		}
	}
	for _, flag := range []string{"--max-turns", "--max-budget-usd", "--system-prompt-snapshot"} {
		if slices.Contains(args, flag) {
			t.Errorf("%s passed to the TUI: %q", flag, args)
		}
	}
	var cfg struct {
		MCPServers map[string]struct {
			Type, Command string
			Env           map[string]string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(flagValue(args, "--mcp-config")), &cfg); err != nil {
		t.Fatalf("--mcp-config: %v (args %q)", err, args)
	}
	on, ok := cfg.MCPServers["on"]
	if len(cfg.MCPServers) != 1 || !ok || on.Command != "/bin/true" || on.Env["TOKEN"] != "t1" {
		t.Errorf("MCP servers %+v, want only the enabled one", cfg.MCPServers)
	}
}

// TestLimitsOnResume: a resumed conversation gets the session's current
// prompt with the CLI's snapshot of the old one off; a worker without
// limits or servers passes none of their flags.
func TestLimitsOnResume(t *testing.T) {
	f := newFixture(t, writeScript(t, argsCLI))
	id := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"
	f.sess.ClaudeSessionID, f.sess.ClaudeSessionStarted = &id, true
	f.info.Limits = worker.Limits{AppendSystemPrompt: "New prompt."}
	args := startArgs(t, f)
	if flagValue(args, "--resume") != id || flagValue(args, "--system-prompt-snapshot") != "off" {
		t.Errorf("resume args %q: want --resume and --system-prompt-snapshot off", args)
	}

	bare := newFixture(t, writeScript(t, argsCLI))
	args = startArgs(t, bare)
	for _, flag := range []string{"--append-system-prompt", "--system-prompt-snapshot", "--disallowedTools", "--add-dir", "--mcp-config"} {
		if slices.Contains(args, flag) {
			t.Errorf("%s without a limit: %q", flag, args)
		}
	}
}
