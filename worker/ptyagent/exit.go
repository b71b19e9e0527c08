package ptyagent

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/worker"
)

// maxSummary bounds the screen line quoted in a start-up failure, in runes.
const maxSummary = 200

// problemLine finds the line of a failing CLI's screen that says what went
// wrong ("Error: Session ID … is already in use.", "Unable to connect to
// Anthropic services").
var problemLine = regexp.MustCompile(`(?i)\b(error|unable|failed|cannot|can't|not found|invalid)\b`)

// exited reports the CLI's exit once all its output is logged: the
// activity goes idle, tabs get the exit frame, and (unless Stop ended it)
// the worker becomes exited.
func (r *Runtime) exited(p *pty.Proc) {
	code, sig := p.ExitStatus()
	if err := r.env.Store.DeleteProcess(r.env.Info.ID); err != nil {
		r.slog.Warn("forget pty-agent process group", "err", err)
	}
	// The last output is stored (or refused) before the exit is reported,
	// so that a failure to store it is reported too.
	_ = r.log.Sync(context.Background())
	if r.storeMsg == nil && r.log.Err() != nil {
		r.storeFailed()
	}
	// A stop comes from the manager (worker deleted, switched away, server
	// shutting down), which owns the worker's state then: the tabs learn
	// that the CLI ended, the manager is not told what it already knows.
	stopping := r.stopping.Load()
	if stopping {
		r.publishActivity(worker.ActivityIdle)
	} else {
		r.setActivity(worker.ActivityIdle)
	}
	exit := exitMsg{Type: "exit", ExitCode: &code}
	if sig != "" {
		exit = exitMsg{Type: "exit", Signal: &sig}
	}
	r.publishTail(slotExit, exit)
	r.slog.Info("claude exited", "code", code, "signal", sig)
	if stopping {
		return
	}
	msg := r.storeMsg
	switch {
	case sig != "":
		m := "killed by signal " + sig
		msg = withStoreMsg(m, r.storeMsg)
	case code != 0 && time.Since(r.started) < EarlyExit:
		msg = withStoreMsg(r.startupFailure(code), r.storeMsg)
	}
	r.update(func(i *worker.Info) {
		i.Status, i.ExitCode, i.Error = worker.StatusExited, exit.ExitCode, msg
	})
}

func withStoreMsg(msg string, store *string) *string {
	if store != nil {
		msg += "; " + *store
	}
	return &msg
}

// storeFailed tells the tabs, now and on every later attach, that output
// could not be stored, and sets the worker's error. The status stays: the
// CLI still runs and takes input, and output is saved again once the disk
// has room. It runs on the runtime's goroutine.
func (r *Runtime) storeFailed() {
	err := r.log.Err()
	code, msg := pty.StoreFailure(err)
	r.slog.Error("pty-agent output not stored", "err", err)
	r.storeMsg = &msg
	r.publishTail(slotError, errorMsg{Type: "error", Code: code, Message: msg})
	if !r.stopping.Load() { // a stopping worker's state is the manager's
		r.update(func(i *worker.Info) { i.Error = &msg })
	}
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
	r.absent = true
	msg := fmt.Sprintf("%v (looked for %q)", claude.ErrNotFound, path)
	r.slog.Warn("claude not found", "path", path, "err", err)
	r.writeNote(red, msg)
	r.update(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, &msg })
	r.publishTail(slotError, errorMsg{Type: "error", Code: "claude_not_found", Message: msg})
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
	r.update(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, &msg })
	r.publishTail(slotError, errorMsg{Type: "error", Code: "start_failed", Message: msg})
}

// SGR wrappers for agentdesk's own lines in the terminal output.
const (
	dim = "\x1b[2m"
	red = "\x1b[31m"
)

// writeNote puts one line of agentdesk's own into the output, styled, so
// that it reads as a remark beside the CLI's screen rather than part of it.
func (r *Runtime) writeNote(style, text string) {
	if _, err := r.log.Write([]byte(style + text + "\x1b[0m\r\n")); err != nil {
		r.slog.Warn("write pty-agent note", "err", err)
	}
}
