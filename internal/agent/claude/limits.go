package claude

import (
	"strconv"
	"strings"
)

// Limits are the per-session flags of agents.md, section E, and the MCP
// servers, for the stream-json CLI.
type Limits struct {
	// AppendSystemPrompt → --append-system-prompt; SnapshotOff adds
	// --system-prompt-snapshot off, which a resumed conversation needs for
	// a prompt that changed (else the CLI sends the one it recorded).
	AppendSystemPrompt string
	SnapshotOff        bool
	MaxTurns           int     // --max-turns, per user message
	MaxBudgetUSD       float64 // --max-budget-usd, per process
	DisallowedTools    []string
	AddDirs            []string
	// MCPConfig is --mcp-config's JSON (MCPConfig), "" for none.
	MCPConfig string
}

// LimitArgs returns the flags for l; zero values give none.
func LimitArgs(l Limits) []string {
	var args []string
	if l.AppendSystemPrompt != "" {
		args = append(args, "--append-system-prompt", l.AppendSystemPrompt)
		if l.SnapshotOff {
			args = append(args, "--system-prompt-snapshot", "off")
		}
	}
	if l.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(l.MaxTurns))
	}
	if l.MaxBudgetUSD > 0 {
		args = append(args, "--max-budget-usd", strconv.FormatFloat(l.MaxBudgetUSD, 'f', -1, 64))
	}
	if tools := nonEmpty(l.DisallowedTools); len(tools) > 0 {
		args = append(args, "--disallowedTools", strings.Join(tools, ","))
	}
	for _, d := range nonEmpty(l.AddDirs) {
		args = append(args, "--add-dir", d)
	}
	if l.MCPConfig != "" {
		args = append(args, "--mcp-config", l.MCPConfig)
	}
	return args
}
