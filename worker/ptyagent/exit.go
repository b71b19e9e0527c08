package ptyagent

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// maxSummary bounds the screen line quoted in a start-up failure, in runes.
const maxSummary = 200

// problemLine finds the line of a failing CLI's screen that says what went
// wrong ("Error: Session ID … is already in use.", "Unable to connect to
// Anthropic services").
var problemLine = regexp.MustCompile(`(?i)\b(error|unable|failed|cannot|can't|not found|invalid)\b`)

// exitNote is the worker's error for a CLI that exited with a failing
// code: the start-up failure when it ended right after starting.
func (r *Runtime) exitNote(code int) string {
	if time.Since(r.started) < EarlyExit {
		return r.startupFailure(code)
	}
	return ""
}

// startupFailure summarises a CLI that exited right after starting. Its
// own message is already in the terminal output; this is the short form
// for the worker list.
func (r *Runtime) startupFailure(code int) string {
	msg := fmt.Sprintf("claude exited with code %d right after starting", code)
	all := r.det.lines()
	lines := lastNonBlank(all, len(all))
	if len(lines) == 0 {
		return msg
	}
	pick := strings.TrimSpace(lines[len(lines)-1])
	for _, l := range lines {
		if problemLine.MatchString(l) {
			pick = strings.TrimSpace(l)
			break
		}
	}
	if r := []rune(pick); len(r) > maxSummary {
		pick = string(r[:maxSummary]) + "…"
	}
	return msg + ": " + pick
}

// failAbsent reports a claude binary that does not exist or cannot be run:
// status error, a claude_not_found frame, and the message in red in the
// terminal itself, which is what the user looks at.
func (r *Runtime) failAbsent(path string, err error) {
	msg := fmt.Sprintf("%v (looked for %q)", claude.ErrNotFound, path)
	r.slog.Warn("claude not found", "path", path, "err", err)
	r.writeNote(red, msg)
	r.term.Fail(wire.CodeClaudeNotFound, msg, worker.ErrClaudeAbsent)
}

// failStart reports a start that failed for another reason than a missing
// binary.
func (r *Runtime) failStart(path string, err error) {
	if isAbsent(err) {
		r.failAbsent(path, err)
		return
	}
	msg := "start claude: " + err.Error()
	r.slog.Warn("start claude", "err", err)
	r.writeNote(red, msg)
	r.term.Fail(wire.CodeStartFailed, msg, nil)
}

// SGR wrappers for agentdesk's own lines in the terminal output.
const (
	dim = "\x1b[2m"
	red = "\x1b[31m"
)

// writeNote puts one line of agentdesk's own into the output, styled, so
// that it reads as a remark beside the CLI's screen rather than part of it.
func (r *Runtime) writeNote(style, text string) {
	if _, err := r.term.Log().Write([]byte(style + text + "\x1b[0m\r\n")); err != nil {
		r.slog.Warn("write pty-agent note", "err", err)
	}
}
