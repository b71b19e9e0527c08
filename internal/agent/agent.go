// Package agent is the contract between the chat engine (worker/chat) and
// the drivers of coding agents (internal/agent/claude, later others): what
// the engine needs of one agent, in the engine's terms. A Driver starts
// the agent's process; the Conn it returns takes the engine's calls (send
// a user message, interrupt, answer a request, change settings, signal,
// close) and hands back everything the agent says as Events on one
// channel, in order: one direction, no callbacks into the engine.
//
// The messages an Event carries are in API.md's chat message format (what
// an sdk-message frame's "message" holds: system, assistant, user, result
// and stream_event objects with a uuid; text, thinking, tool_use and
// tool_result blocks). It is the API's, not any agent's: a driver passes
// its agent's output through or builds such objects from it. Everything
// else of an agent (its flags, its protocol's words, its files) stays in
// its driver.
//
// A driver may have more abilities than Start; the engine finds them with
// a type assertion (History, Updater, Records), as the server finds a
// worker's. The engine uses each when it is there and does without it
// otherwise. Options and Event may grow fields; a zero value always means
// "as before".
//
// The package is physically under internal/ because drivers live there and
// nothing under internal/ may import worker/; conceptually it is the
// engine's. It holds types, interfaces and tiny helpers, no logic.
package agent

import (
	"context"
	"log/slog"

	"github.com/agentdesk/agentdesk/internal/launch"
)

// Driver starts one kind of agent. Implementations are safe for concurrent
// use.
type Driver interface {
	// Start runs the agent for o and returns once it is ready for a user
	// message (its handshake answered): a Conn that the caller must Close.
	// ctx bounds the start only (the handshake included); the process
	// lives until Close. Every process starts through o.Launcher. A
	// missing program is an error matching ErrNotFound; any other failure
	// is an error whose text a person can read (why the agent did not
	// start, with the last lines it printed). On failure nothing is left
	// running.
	Start(ctx context.Context, o Options) (Conn, error)
}

// Options are what a start needs; the driver turns them into its agent's
// flags. Fields may be added; their zero value keeps today's behaviour.
type Options struct {
	// Conversation is the conversation to run (Claude's session id).
	Conversation string
	// Resume continues Conversation; false starts it. A driver whose agent
	// disagrees (a conversation that does not exist yet, or exists
	// already) may retry the other way: it believes the agent.
	Resume bool
	// Dir is the agent's working directory.
	Dir string
	// Env is the base environment, already scrubbed by the caller
	// (childproc); the driver adds its agent's own variables.
	Env []string
	// Marker is the worker's crash clean-up identity (AGENTDESK_WORKER).
	Marker string
	// Launcher starts every process of the agent; nil means launch.Local.
	Launcher launch.Launcher
	// Settings are the model and permission mode to start with; "" leaves
	// the agent's own default.
	Settings Settings
	// AllowedTools are tools (and rules, in the agent's syntax) allowed
	// without asking.
	AllowedTools []string
	// AllowBypass lets the person switch the running agent to the mode
	// that asks nothing (bypassPermissions) later on. Set only for a
	// session whose every process runs in a sandbox.
	AllowBypass bool
	// Tools, when Registry is set, are tools from outside the agent that
	// it may call (tools.go).
	Tools Tools
	// Limits bound this process and add to its system prompt.
	Limits Limits
	// MCPServers are the MCP servers the agent runs besides Tools.
	MCPServers []MCPServer
	// Log receives the driver's warnings about the agent's output (a line
	// it cannot read, a request it does not know); nil discards them.
	Log *slog.Logger
}

// Settings are what a person chooses for an agent; "" means not chosen.
type Settings struct {
	Model          string
	PermissionMode string
}

// Merge returns s with the values o sets on top.
func (s Settings) Merge(o Settings) Settings {
	if o.Model != "" {
		s.Model = o.Model
	}
	if o.PermissionMode != "" {
		s.PermissionMode = o.PermissionMode
	}
	return s
}

// Capabilities are what a running agent says it offers. The engine keeps
// the last answer: it outlives the Conn.
type Capabilities struct {
	Models         []Model
	Commands       []Command
	PermissionMode string // the mode in force at the start; "" when not said
}

// Model is one model the agent can switch to. Value is what
// Settings.Model takes.
type Model struct {
	Value         string
	DisplayName   string
	Description   string
	ResolvedModel string
}

// Command is one slash command the agent knows, without its slash.
type Command struct {
	Name         string
	Description  string
	ArgumentHint string
}
