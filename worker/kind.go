package worker

import (
	"context"
	"log/slog"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/persist"
)

// Runtime is the live part of a worker of some kind: it serves the
// worker's WebSocket and stops. The manager holds one per worker for as
// long as the worker exists (also when its process has exited, so that its
// history can still be read). Every kind defines its own frames (API.md);
// the server only moves bytes. Further abilities (input, cancel, history,
// diffs) are methods that callers find with a type assertion on the small
// interfaces they define.
type Runtime interface {
	// Attach opens a stream starting after cursor, the raw value of the
	// socket's query parameter (sdk: "after" uuid; PTY kinds: "offset";
	// "" means from the oldest kept). An unknown cursor is not an error:
	// the replay then starts with whatever reset/truncated frame the kind's
	// protocol defines.
	Attach(ctx context.Context, cursor string) (*hub.Stream, error)
	// HandleClient handles one text frame from a client. A frame that is
	// malformed or of an unknown type returns an error wrapping ErrInvalid
	// (the server answers with an invalid_message error frame and keeps
	// the connection). A frame that asks for a fresh replay
	// (request-history) returns the new Stream; the server then sends it
	// in place of the current one.
	HandleClient(ctx context.Context, data []byte) (*hub.Stream, error)
	// Stop ends the worker's processes and waits for them and for every
	// goroutine the runtime owns. It must be safe to call more than once.
	// The worker's status is the manager's then: it drops every report the
	// runtime makes from the moment it decided to stop it.
	Stop(ctx context.Context) error
}

// Factory builds the runtime of one worker kind. It returns quickly: a
// slow start-up continues in the runtime's own goroutines and reports
// through Env.Report.
type Factory func(ctx context.Context, env Env) (Runtime, error)

// Validator checks the options of a new worker of its kind before anything
// of it is stored or broadcast: an error (one wrapping ErrInvalid, or a
// CodeError, for the caller to see) refuses the request, which then
// changes nothing. Env.Report is nil: a validator only looks. A kind
// registers one when its factory could refuse options (a git-diff base
// that does not resolve); the factory may still fail, and the worker is
// then shown in status error.
type Validator func(ctx context.Context, env Env) error

// Env is what a Factory (or a Validator) gets.
type Env struct {
	Info    Info           // the worker as stored
	Session Session        // its session (Workers not filled in)
	Store   *persist.Store // the worker's logs and output live here
	Config  Config
	Log     *slog.Logger
	// Restored is true when the worker comes back from storage after a
	// server restart rather than being created now.
	Restored bool
	// Report tells the manager what happened to the worker (Reporter).
	Report Reporter
	// SetClaudeSession records the session's Claude conversation id (a
	// new conversation: not started).
	SetClaudeSession func(id string)
	// ConversationStarted records that a CLI got a message of the
	// session's conversation (Session.ClaudeSessionStarted). Safe to call
	// from any goroutine; may be nil.
	ConversationStarted func()
	// SaveMode stores a permission mode the CLI took from a person's
	// answer (a plan approved in a mode) as the worker's; AddRules records
	// rules added with "Always allow" on the session. Both may be nil.
	SaveMode func(mode string) error
	AddRules func([]Rule) error
	// Marker is the AGENTDESK_WORKER value every child of the worker gets
	// (childproc.Env): it finds them again, wherever they moved, after a
	// crash and when the worker is stopped.
	Marker string
	// Launcher starts the worker's processes (internal/launch); never nil
	// in an Env the manager built.
	Launcher launch.Launcher
	// SpentUSD is what the session's conversation has cost so far, summed
	// from the stored results of every agent process of the session (the
	// budget of Limits.MaxBudgetUSD holds across restarts with it). nil in
	// a validator's Env.
	SpentUSD func() (float64, error)

	trees *trees // follows recorded processes' descendants; nil: none
}

// RecordProcess records the worker's running process with its identity, so
// that a start after a crash can end it and nothing else. Call it right
// after the process started, before waiting on it for anything. While it
// runs, the processes it starts are recorded too (trees).
func (e Env) RecordProcess(id childproc.Ident) error {
	err := e.Store.PutProcess(e.Info.ID, persist.Process{Pid: id.Pid, Start: id.Start, Marker: id.Marker, Boot: id.Boot})
	if err == nil && e.trees != nil {
		e.trees.add(e.Info.ID, id)
	}
	return err
}

// CursorParam is the query parameter that carries the cursor for a kind.
func CursorParam(k Kind) string {
	switch k {
	case KindSDK:
		return "after"
	case KindTerminal, KindPTYAgent:
		return "offset"
	}
	return ""
}
