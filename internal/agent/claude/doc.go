// Package claude owns everything about driving the Claude Code CLI: finding
// the binary (Find, Resolve), the child's environment (ChildEnv), seeding
// its config file so the interactive CLI starts at its prompt (SeedConfig),
// and, in stream-json mode, a long-lived child process: it builds the
// command line, owns the process and its pipes, decodes stdout lines, and
// speaks the control protocol (initialize, interrupt, can_use_tool
// answers). It also knows where the CLI keeps its session files.
//
// Everything here follows ../shared/docs/claude-cli.md, observed with CLI
// 2.1.330. The package knows nothing about agentdesk workers: worker/chat
// turns Lines into chat messages, worker/ptyagent runs the CLI in a PTY.
package claude

import "errors"

// ErrNotFound is returned by Start when the CLI binary does not exist or is
// not executable.
var ErrNotFound = errors.New("claude CLI not found: install it with `npm install -g @anthropic-ai/claude-code` or pass --claude /path/to/claude")

// ErrExited is returned by writes and pending Control calls once the process
// has exited (or its stdin was closed by Close).
var ErrExited = errors.New("claude process exited")

// ErrBadLine is wrapped by ParseLine for a stdout line that is not a JSON
// object with a string "type".
var ErrBadLine = errors.New("bad stream-json line")

// ErrLineTooLong is set as Line.Err for a stdout line longer than
// MaxLineSize. The line is skipped; reading goes on with the next one.
var ErrLineTooLong = errors.New("stream-json line too long")
