package agent

import (
	"context"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// Tools are the tools from outside the agent it may call (the tool
// bridge, internal/toolbridge): a driver serves them to its agent in the
// agent's own way (Claude: an MCP server hosted inside agentdesk) and
// routes each call to Registry, in Scope.
type Tools struct {
	Registry *toolbridge.Registry
	// Scope is whose tools the agent sees (the session's id).
	Scope string
}

// Limits are a person's limits on one agent process and an addition to
// its system prompt. Zero values are no limit.
type Limits struct {
	AppendSystemPrompt string
	MaxTurns           int // the agent's steps per user message
	// MaxBudgetUSD is what this process may still spend: the engine
	// passes what is left of the conversation's budget.
	MaxBudgetUSD    float64
	DisallowedTools []string
	AddDirs         []string
}

// MCPServer is an MCP server the agent runs itself: a command over stdio
// (Type "stdio") or a server over HTTP ("http"). Env and Headers hold
// secrets: a driver never logs them.
type MCPServer struct {
	Name    string
	Type    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

// MCPStatus is one MCP server as the running agent reports it, without
// its configuration (which would show its secrets).
type MCPStatus struct {
	Name   string
	Status string // connected, pending, failed, disabled, needs-auth…
	Error  string
	Tools  []string
}

// MCP is an optional ability of a Conn whose agent runs MCP servers: the
// engine asks it for their state and turns one off or on live.
type MCP interface {
	// MCPStatus lists every MCP server the agent has now.
	MCPStatus(ctx context.Context) ([]MCPStatus, error)
	// ToggleMCP turns the agent's server name off or on. An agent that
	// takes the change only when it starts answers an error matching
	// ErrRestart.
	ToggleMCP(ctx context.Context, name string, enabled bool) error
}
