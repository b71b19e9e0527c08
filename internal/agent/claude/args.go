package claude

import (
	"strings"
	"time"
)

// DefaultGrace is how long Close waits after closing stdin, and again after
// SIGTERM, before escalating.
const DefaultGrace = 3 * time.Second

// Options configures one CLI process. The zero value runs `claude` from PATH
// in the current directory with a new, CLI-chosen session id.
type Options struct {
	// Path is the CLI binary; "" means "claude" looked up in PATH.
	Path string
	// Dir is the child's working directory; "" means the current one.
	Dir string
	// Env is the full child environment, built by the caller (see ChildEnv).
	// nil means ChildEnv(os.Environ()). Either way every AGENTDESK_*
	// variable is removed (childproc.Env).
	Env []string
	// Marker is the AGENTDESK_WORKER value the CLI and its tools get ("" for
	// none).
	Marker string

	// SessionID names the conversation: --resume SessionID when Resume,
	// else --session-id SessionID (which the CLI refuses if the id is in
	// use). "" passes neither.
	SessionID string
	Resume    bool

	// Model, PermissionMode and AllowedTools map to --model,
	// --permission-mode and --allowedTools; empty values are omitted.
	Model          string
	PermissionMode string
	AllowedTools   []string
	// AllowBypass offers bypassPermissions as a mode to switch to later
	// (--allow-dangerously-skip-permissions): set in a sandboxed session
	// only, whose box sets IS_SANDBOX=1 for a CLI running as root.
	AllowBypass bool

	// Limits are the per-session flags and the MCP servers (limits.go);
	// the stream-json child only.
	Limits Limits

	// Grace bounds each step of Close (after closing stdin, after SIGTERM)
	// and is the exec WaitDelay. 0 means DefaultGrace.
	Grace time.Duration
}

func (o Options) grace() time.Duration {
	if o.Grace > 0 {
		return o.Grace
	}
	return DefaultGrace
}

// baseArgs is the long-lived stream-json mode of claude-cli.md §3 with
// partial messages and permission prompts over stdio (§6).
var baseArgs = []string{
	"-p",
	"--input-format", "stream-json",
	"--output-format", "stream-json",
	"--verbose",
	"--include-partial-messages",
	"--permission-prompt-tool", "stdio",
}

// Args returns the CLI arguments for o (without the program name).
func Args(o Options) []string {
	args := append(append([]string(nil), baseArgs...), ConversationArgs(o)...)
	return append(args, LimitArgs(o.Limits)...)
}

// ConversationArgs returns the arguments both ways of running the CLI
// share (the stream-json child and the interactive TUI in a PTY): the
// conversation (--resume or --session-id), the model, the permission mode
// and the allowed tools of o. A person's choices then hold in either view.
func ConversationArgs(o Options) []string {
	var args []string
	if o.SessionID != "" {
		if o.Resume {
			args = append(args, "--resume", o.SessionID)
		} else {
			args = append(args, "--session-id", o.SessionID)
		}
	}
	if o.Model != "" {
		args = append(args, "--model", o.Model)
	}
	if o.PermissionMode != "" {
		args = append(args, "--permission-mode", o.PermissionMode)
	}
	if tools := nonEmpty(o.AllowedTools); len(tools) > 0 {
		// One comma-separated value: the flag is variadic in the CLI, and a
		// single argument cannot swallow whatever follows it.
		args = append(args, "--allowedTools", strings.Join(tools, ","))
	}
	if o.AllowBypass {
		args = append(args, "--allow-dangerously-skip-permissions")
	}
	return args
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
