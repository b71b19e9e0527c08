// Package claude owns everything about driving the Claude Code CLI: finding
// the binary (Find, Resolve), the child's environment (ChildEnv), seeding
// its config file so the interactive CLI starts at its prompt (SeedConfig),
// and, in stream-json mode, a long-lived child process: it builds the
// command line, owns the process and its pipes, decodes stdout lines, and
// speaks the control protocol (initialize, interrupt, can_use_tool
// answers). It also knows where the CLI keeps its session files.
//
// It is also the chat engine's Claude driver (agent.Driver: NewDriver):
// the translation of the CLI's lines into the engine's events (driver.go,
// conn.go, events.go), its permission requests and answers (requests.go,
// updates.go), and its session files as a conversation's history
// (history.go). Every word of the CLI's protocol lives in this package.
//
// Everything here follows ../shared/docs/claude-cli.md, observed with CLI
// 2.1.330. The package knows nothing about agentdesk workers: it imports
// the engine's contract (internal/agent) and no worker package;
// worker/ptyagent runs the CLI in a PTY with its flags and seeding.
package claude

import (
	"errors"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// ErrNotFound is returned by Start when the CLI binary does not exist or is
// not executable. It matches agent.ErrNotFound.
var ErrNotFound = agent.NewError(agent.ErrNotFound, "claude CLI not found: install it with `npm install -g @anthropic-ai/claude-code` or pass --claude /path/to/claude")

// ErrExited is returned by writes and pending Control calls once the process
// has exited (or its stdin was closed by Close). It matches
// agent.ErrExited.
var ErrExited = agent.NewError(agent.ErrExited, "claude process exited")

// ErrBadLine is wrapped by ParseLine for a stdout line that is not a JSON
// object with a string "type".
var ErrBadLine = errors.New("bad stream-json line")

// ErrLineTooLong is set as Line.Err for a stdout line longer than
// MaxLineSize. The line is skipped; reading goes on with the next one.
var ErrLineTooLong = errors.New("stream-json line too long")
