package agent

import (
	"context"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/attach"
	"github.com/agentdesk/agentdesk/internal/childproc"
)

// Conn is one running agent process. The engine only calls it; what the
// agent says comes back on Events. All methods are safe for concurrent
// use.
type Conn interface {
	// Events delivers what the agent says, in order, in batches (all that
	// waits, bounded by the driver; the receiver owns each batch). The
	// driver stops reading its agent while the engine does not take them,
	// which pauses the agent. The channel is closed once the agent's
	// output ended (it exited, or Close). The engine drains it to the end.
	Events() <-chan []Event
	// Capabilities is what the agent answered at its start; Models and
	// Commands are nil when it said nothing readable (the engine then keeps
	// the last answer it had).
	Capabilities() Capabilities
	// Send writes a user message; a turn starts (or the message joins the
	// running one). An agent that exited meanwhile is an error matching
	// ErrExited: the engine then starts another and sends it there.
	Send(in Input) error
	// Interrupt asks the running turn to stop and waits for the agent's
	// acknowledgement (the turn's end follows as Events). ctx bounds the
	// wait; a wedged agent never answers.
	Interrupt(ctx context.Context) error
	// Answer answers the Request id. An agent that exited is ErrExited.
	Answer(id string, a Answer) error
	// Apply changes the model and permission mode while the agent runs:
	// what differs between from and to. A change the agent refuses is an
	// error wrapping wire.ErrConflict whose text gives the agent's reason,
	// and what Apply changed before goes back. An agent that exited
	// meanwhile is ErrExited (no failure: the next start takes to).
	Apply(ctx context.Context, from, to Settings) error
	// Signal sends sig to the agent's process group (the escalating Stop,
	// a shutdown that must not let the agent answer for the person).
	Signal(sig syscall.Signal) error
	// Done is closed once the agent's process has exited and been reaped.
	Done() <-chan struct{}
	// ExitStatus is the exit code, or -1 and the signal's name ("SIGKILL")
	// when a signal ended the process. It is valid after Done.
	ExitStatus() (code int, signal string)
	// Ident is the agent process's identity (pid, start time, marker):
	// what crash clean-up and the escalating Stop find it by.
	Ident() childproc.Ident
	// Stderr is the tail of what the agent wrote to stderr, for logs.
	Stderr() string
	// Close ends the agent (gently first: a running turn may finish, then
	// signals after a grace; ctx ending goes straight to SIGKILL) and
	// waits for everything Start began. Idempotent.
	Close(ctx context.Context) error
}

// Wrapped is an optional ability of a Conn whose agent a launcher runs
// inside another process (a sandbox): Ident is that process's, and the
// agent's tools are found below it without the worker's marker.
type Wrapped interface {
	// Program is the pid of the agent's own program; 0 while the wrapper
	// has not started it yet.
	Program() int
}

// Input is a user message for the agent.
type Input struct {
	// ID is the uuid the engine stored the message under; a driver whose
	// agent keeps a message's id gives it this one, so the message has
	// one identity in every log that holds the conversation.
	ID string
	// Text is what the person typed; it may be empty when Files are not.
	Text string
	// Files are the attachments, checked (attach.Decode), in order after
	// the text.
	Files []attach.File
}
