package wire

// Code is the machine code of an error answer ({"error","code"}) or of an
// error frame ({"type":"error","code","message"}).
type Code string

// The codes of API.md and docs/api-extensions.md.
const (
	CodeInvalidJSON        Code = "invalid_json"
	CodeInvalidField       Code = "invalid_field" // the message names the field
	CodeInvalidMessage     Code = "invalid_message"
	CodeInvalidBase        Code = "invalid_base"
	CodeNotFound           Code = "not_found"
	CodeUnauthorized       Code = "unauthorized"
	CodeForbidden          Code = "forbidden"
	CodeConflict           Code = "conflict"
	CodeAgentBusy          Code = "agent_busy"
	CodeTooLarge           Code = "too_large"
	CodeTimeout            Code = "timeout"
	CodeClaudeNotFound     Code = "claude_not_found"
	CodeClaudeExited       Code = "claude_exited"
	CodeStartFailed        Code = "start_failed"
	CodeDiffFailed         Code = "diff_failed"
	CodeGitFailed          Code = "git_failed" // git refused a stage, commit or push; the message is git's
	CodeStorageFull        Code = "storage_full"
	CodeStorageUnavailable Code = "storage_unavailable"
	// CodeSandboxUnavailable: a sandboxed session asked of a server that
	// cannot run its box (bwrap or socat missing: the message names the
	// package to install).
	CodeSandboxUnavailable Code = "sandbox_unavailable"
	CodeInternal           Code = "internal"
)

// Upstream reports whether the code says a child process failed (the CLI,
// a shell, git): the server's own upstream, answered 502 over REST.
func (c Code) Upstream() bool {
	return c == CodeClaudeExited || c == CodeStartFailed || c == CodeDiffFailed
}
