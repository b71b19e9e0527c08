// Package worker is agentdesk's domain: sessions, the workers that run in
// them, and the Manager that owns their lifecycles and persists them.
//
// Each worker kind lives in its own subpackage and plugs in through a
// Factory registered on the Manager; this package never imports them.
package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/persist"
)

// Kind names a worker kind.
type Kind string

// The worker kinds of API.md.
const (
	KindSDK      Kind = "sdk"
	KindPTYAgent Kind = "pty-agent"
	KindTerminal Kind = "terminal"
	KindGitDiff  Kind = "git-diff"
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

	Model          string   `json:"model,omitempty"`          // sdk, pty-agent
	PermissionMode string   `json:"permissionMode,omitempty"` // sdk
	AllowedTools   []string `json:"allowedTools,omitempty"`   // sdk
	Command        []string `json:"command,omitempty"`        // terminal
	Cols           int      `json:"cols,omitempty"`           // terminal, pty-agent
	Rows           int      `json:"rows,omitempty"`           // terminal, pty-agent
	Base           string   `json:"base,omitempty"`           // git-diff: the commit-ish asked for
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
}

// Runtime is the live part of a worker of some kind. The manager holds one
// per worker for as long as the worker exists (also when its process has
// exited, so that its history can still be read). Kind-specific abilities
// (attaching a socket, sending input) are further methods that callers find
// with a type assertion on the interfaces they define.
type Runtime interface {
	// Stop ends the worker's processes and waits for them and for every
	// goroutine the runtime owns. It must be safe to call more than once.
	Stop(ctx context.Context) error
}

// Env is what a Factory gets to build a worker's runtime.
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
	// Update changes the stored worker (status, activity, exit code...):
	// the manager persists it and broadcasts worker-updated.
	//
	// Deprecated: Report replaces it; it goes once no kind calls it.
	Update func(func(*Info))
	// SetClaudeSession records the session's Claude conversation id (a
	// new conversation: not started).
	SetClaudeSession func(id string)
	// ConversationStarted records that a CLI got a message of the
	// session's conversation (Session.ClaudeSessionStarted). Safe to call
	// from any goroutine; may be nil.
	ConversationStarted func()
	// Marker is the AGENTDESK_WORKER value every child of the worker gets
	// (childproc.Env): it finds them again, wherever they moved, after a
	// crash and when the worker is stopped.
	Marker string
}

// RecordProcess records the worker's running process with its identity, so
// that a start after a crash can end it and nothing else. Call it right
// after the process started, before waiting on it for anything.
func (e Env) RecordProcess(id childproc.Ident) error {
	return e.Store.PutProcess(e.Info.ID, persist.Process{Pid: id.Pid, Start: id.Start, Marker: id.Marker})
}

// Config holds the server-wide settings workers need.
type Config struct {
	ClaudePath string   // the claude CLI to run
	ChildEnv   []string // the base environment for child processes (secrets removed)
	// ClaudeConfigDir is CLAUDE_CONFIG_DIR for agent workers ("" means the CLI's default).
	ClaudeConfigDir string
	// WorktreeDir is where new worktrees go ("" means beside the repository).
	WorktreeDir string
}

// Factory builds the runtime of one worker kind. It returns quickly: a
// slow start-up continues in the runtime's own goroutines and reports
// through Env.Update.
type Factory func(ctx context.Context, env Env) (Runtime, error)
