// Package worker is agentdesk's domain: sessions, the workers that run in
// them, and the Manager that owns their lifecycles and persists them.
//
// Each worker kind lives in its own subpackage and plugs in through a
// Factory (and, when it can refuse options, a Validator) registered on the
// Manager; this package never imports them. kind.go is the contract a kind
// meets, report.go what it tells the manager, lifecycle.go the one table
// of status transitions, table.go the state the Manager changes.
//
// The use cases around the lifecycles are services built on the Manager:
// here AgentSettings, Repos, Usage, FileList and Export; in subpackages
// that are not kinds, review (comments), gitops (git from the UI),
// attention (the "needs you" list), notify (Web Push), adopt (the CLI's
// own conversations) and find (search).
package worker

import (
	"time"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// Kind names a worker kind.
type Kind string

// The worker kinds of API.md.
const (
	KindSDK      Kind = "sdk"
	KindPTYAgent Kind = "pty-agent"
	KindTerminal Kind = "terminal"
	KindGitDiff  Kind = "git-diff"
	// KindFiles is the Files tab (docs/api-extensions.md): it starts no
	// process; its socket tells which open folders changed.
	KindFiles Kind = "files"
)

// IsAgent reports whether the kind drives the session's Claude conversation.
func (k Kind) IsAgent() bool { return k == KindSDK || k == KindPTYAgent }

// Status is a worker's lifecycle state.
type Status string

// Worker statuses of API.md.
const (
	StatusStarting Status = "starting"
	StatusRunning  Status = "running"
	StatusStopped  Status = "stopped"
	StatusExited   Status = "exited"
	StatusError    Status = "error"
)

// Activity is an agent worker's state in its conversation.
type Activity string

// Activities of API.md.
const (
	ActivityActive Activity = "active"
	ActivityIdle   Activity = "idle"
	ActivityAsking Activity = "asking"
	// ActivityStalled is a running turn that showed no progress for
	// Config.StallAfter (docs/api-extensions.md): no output, and no CPU
	// used by the CLI's tools; output clears it.
	ActivityStalled Activity = "stalled"
)

// Info is a worker as API.md's Worker object. The kind-specific fields are
// present only for the kinds they belong to.
type Info struct {
	ID        string    `json:"id"`
	SessionID string    `json:"sessionId"`
	Kind      Kind      `json:"kind"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	Status    Status    `json:"status"`
	Activity  *Activity `json:"activity"`
	ExitCode  *int      `json:"exitCode"`
	Error     *string   `json:"error"`

	// Agent is the agent a chat runs: "" for Claude, AgentCodex for Codex
	// (agents.go).
	Agent          string   `json:"agent,omitempty"`          // sdk
	Model          string   `json:"model,omitempty"`          // sdk, pty-agent
	PermissionMode string   `json:"permissionMode,omitempty"` // sdk, pty-agent
	AllowedTools   []string `json:"allowedTools,omitempty"`   // sdk, pty-agent
	Command        []string `json:"command,omitempty"`        // terminal
	Cols           int      `json:"cols,omitempty"`           // terminal, pty-agent
	Rows           int      `json:"rows,omitempty"`           // terminal, pty-agent
	Base           string   `json:"base,omitempty"`           // git-diff: the commit-ish asked for
	Limits                  // sdk, pty-agent: limits and the appended prompt (agentlimits.go)
	// Current is what the agent's CLI reported it runs with (sdk), nil
	// until it reported. Model and PermissionMode above stay what the
	// person chose ("" when nothing was chosen: the CLI's own settings
	// apply), so that a value present there is a choice.
	Current *Current `json:"current,omitempty"`
	// ConversationID is a Codex chat's own conversation (its Codex
	// thread), once Codex named it; ConversationStarted records that a
	// message went to it, so a new process resumes it (as
	// Session.ClaudeSessionStarted does for Claude's).
	ConversationID      string `json:"conversationId,omitempty"`      // sdk with agent codex
	ConversationStarted bool   `json:"conversationStarted,omitempty"` // sdk with agent codex
}

// Current is the model and permission mode an agent's CLI reports as in
// force (its init and status lines, its initialize answer): the person's
// choice, or the CLI's own settings when there is none. "" is not yet
// reported.
type Current struct {
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permissionMode,omitempty"`
}

// Session is API.md's Session object.
type Session struct {
	ID                  string    `json:"id"`
	Title               string    `json:"title"`
	Cwd                 string    `json:"cwd"`
	CreatedAt           time.Time `json:"createdAt"`
	UpdatedAt           time.Time `json:"updatedAt"`
	ClaudeSessionID     *string   `json:"claudeSessionId"`
	ActiveAgentWorkerID *string   `json:"activeAgentWorkerId"`
	Worktree            *Worktree `json:"worktree"` // the worktree agentdesk made for the session
	Workers             []Info    `json:"workers"`

	// ClaudeSessionStarted is agentdesk's record that a CLI got a message
	// of the conversation, so the CLI has it (a session file, wherever its
	// config directory is): agent workers resume it rather than start it.
	ClaudeSessionStarted bool `json:"claudeSessionStarted"`
	// Branch is the branch checked out in Cwd's git work tree, nil when
	// Cwd is not in one or HEAD is detached. Read at each snapshot, never
	// stored.
	Branch *string `json:"branch"`
	// PermissionRules are the rules added with "Always allow" (rules.go).
	PermissionRules []Rule `json:"permissionRules"`
	// Archived: the session's worktree was removed and its workers
	// stopped; it stays readable (ArchiveSession).
	Archived bool `json:"archived"`
	// MCPServers are the MCP servers the session's agent runs
	// (mcpservers.go); the API shows their secrets masked.
	MCPServers []MCPServer `json:"mcpServers"`
	// Sandbox is the session's sandbox level, chosen at creation: "off",
	// "workspace" or "workspace+net" (sandbox.go). Every process of a
	// sandboxed session's workers runs in its box.
	Sandbox string `json:"sandbox"`
	// SandboxView is what the box shows, nil when off. Worked out when the
	// session is created or loaded, never stored.
	SandboxView *SandboxView `json:"sandboxView"`
}

// Config holds the server-wide settings workers need.
type Config struct {
	ClaudePath string   // the claude CLI to run
	ChildEnv   []string // the base environment for child processes (secrets removed)
	// ClaudeConfigDir is CLAUDE_CONFIG_DIR for agent workers ("" means the CLI's default).
	ClaudeConfigDir string
	// WorktreeDir is where new worktrees go ("" means beside the repository).
	WorktreeDir string
	// StallAfter is how long a running turn may go without progress
	// before its activity is ActivityStalled; 0 disables the watchdog.
	StallAfter time.Duration
	// Tools is the tool bridge's registry (worker/tools): the chat's agent
	// hosts agentdesk's MCP server on it. nil: no tool bridge.
	Tools *toolbridge.Registry
}
