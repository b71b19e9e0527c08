package sdk

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// initTimeout bounds the CLI's answer to initialize (about 0.3 s seen).
const initTimeout = 60 * time.Second

// closeTimeout bounds closing a CLI that failed at start-up.
const closeTimeout = 10 * time.Second

// reportedError is an error the tabs were already told about with an error
// frame, so the WebSocket edge need not answer it again.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// ensureProcess returns the running CLI, starting it first when there is
// none. The caller holds sendMu.
func (r *Runtime) ensureProcess() (*claude.Process, error) {
	r.mu.Lock()
	p, resume, stopped := r.proc, r.resume, r.stopped
	r.mu.Unlock()
	if stopped {
		return nil, errStopped
	}
	if p != nil {
		return p, nil
	}
	if r.isFollowing() {
		return nil, errWatching
	}
	if r.sendCancelled() {
		return nil, errSendCancelled // no CLI to start for a cancelled message
	}
	p, err := r.start(resume)
	if err != nil && retryOther(err) {
		// The log and the CLI disagree on whether the conversation exists
		// (it never got a first message, or another worker created it):
		// believe the CLI.
		r.log.Info("claude start: retrying", "resume", !resume, "err", err)
		p, err = r.start(!resume)
	}
	if err != nil {
		if r.isStopped() {
			return nil, errStopped
		}
		if r.sendCancelled() {
			return nil, errSendCancelled
		}
		return nil, r.startFailed(err)
	}
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		closeQuietly(p)
		r.forgetProcess(p)
		return nil, errStopped
	}
	r.proc, r.resume = p, true
	r.readers.Go(func() { r.read(p) })
	r.mu.Unlock()
	r.reportRunning() // error → running after a failed start
	return p, nil
}

// startError is a CLI that ran but failed before answering initialize.
type startError struct {
	err    error
	stderr string
}

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// retryOther reports whether a start failed only because --resume or
// --session-id was the wrong choice.
func retryOther(err error) bool {
	var se *startError
	if !errors.As(err, &se) {
		return false
	}
	return strings.Contains(se.stderr, "No conversation found") ||
		strings.Contains(se.stderr, "is already in use")
}

// start runs the CLI and waits for its initialize answer. On failure the
// process is closed.
func (r *Runtime) start(resume bool) (*claude.Process, error) {
	set, tools := r.startFlags()
	opts := claude.Options{
		Path:           r.env.Config.ClaudePath,
		Dir:            r.env.Session.Cwd,
		Env:            r.childEnv(),
		Marker:         r.env.Marker,
		SessionID:      r.conv,
		Resume:         resume,
		Model:          set.Model,
		PermissionMode: set.PermissionMode,
		AllowedTools:   tools,
		AllowBypass:    r.env.Session.Sandboxed(),
	}
	p, err := claude.StartWith(r.ctx, r.env.Launcher, opts)
	if err != nil {
		return nil, err
	}
	// Recorded at once, before initialize (which can take seconds) and
	// before the reader runs (its exit deletes the record), so that the
	// next start ends the CLI and its tools if the server dies meanwhile.
	r.recordProcess(p)
	ictx, cancel := context.WithTimeout(r.ctx, initTimeout)
	r.mu.Lock()
	r.abortInit = cancel
	stopped := r.stopped
	r.mu.Unlock()
	if stopped || r.sendCancelled() {
		cancel()
	}
	caps, err := p.Initialize(ictx)
	r.mu.Lock()
	r.abortInit = nil
	r.mu.Unlock()
	cancel()
	if err != nil {
		closeQuietly(p)
		r.forgetProcess(p)
		return nil, &startError{err: fmt.Errorf("initialize claude: %w", err), stderr: p.Stderr()}
	}
	r.setCapabilities(caps)
	return p, nil
}

func (r *Runtime) isStopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}

func (r *Runtime) childEnv() []string {
	return claude.ChildEnv(r.env.Config.ChildEnv, r.env.Config.ClaudeConfigDir)
}

// recordProcess stores p's identity as the worker's process record.
func (r *Runtime) recordProcess(p *claude.Process) {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	r.recorded = p
	if err := r.env.RecordProcess(p.Ident()); err != nil {
		r.log.Warn("record claude process", "err", err)
	}
}

// forgetProcess deletes the record of p, a CLI that is gone, unless a newer
// CLI's record replaced it: a dead CLI's reader may finish after the next
// CLI started (SendUser starts one as soon as a write fails).
func (r *Runtime) forgetProcess(p *claude.Process) {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	if r.recorded != p {
		return
	}
	r.recorded = nil
	if err := r.env.Store.DeleteProcess(r.env.Info.ID); err != nil {
		r.log.Warn("forget claude process", "err", err)
	}
}

func closeQuietly(p *claude.Process) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	_ = p.Close(ctx)
}

// errSendCancelled is a Cancel that came before the CLI got the message.
var errSendCancelled = errors.New("cancelled before claude got the message")

// sendCancelled reports whether Cancel stopped the message on its way.
func (r *Runtime) sendCancelled() bool {
	r.cancelMu.Lock()
	defer r.cancelMu.Unlock()
	return r.cancelSend
}

// startFailed tells the tabs and the manager why the CLI could not start,
// and ends the turn: the message that wanted it stays stored, but no CLI
// will answer it. The error stays in the worker's record until a start
// succeeds. The worker stays usable: the next user message tries again.
func (r *Runtime) startFailed(err error) error {
	code, msg := wire.CodeClaudeExited, "claude exited at start-up: "+err.Error()
	var se *startError
	if errors.As(err, &se) && !strings.Contains(msg, lastLines(se.stderr, 1)) {
		msg += ": " + lastLines(se.stderr, 5)
	}
	if errors.Is(err, claude.ErrNotFound) {
		code, msg = wire.CodeClaudeNotFound, err.Error()
		err = fmt.Errorf("%w: %w", worker.ErrClaudeAbsent, err)
	} else {
		err = &worker.CodeError{Code: code, Err: errors.New(msg)}
	}
	// The worker's status says error before any tab sees the error
	// frame, so a tab that reads the worker after the frame finds it.
	r.reportFailed(errors.New(msg))
	if perr := r.journal.produce([]entry{{kind: kExit, frame: wire.Error(code, msg)}}); perr != nil {
		r.log.Debug("start failure after stop", "err", perr)
	}
	return reportedError{fmt.Errorf("start claude: %w", err)}
}

// lastLines returns the last n non-empty lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// exited is called by the reader once p's stdout ended: the CLI is gone.
// Tabs get an exit frame (unless the worker is stopping) and the next user
// message starts a new CLI with --resume.
func (r *Runtime) exited(p *claude.Process) {
	<-p.Done()
	code, sig := p.ExitStatus()
	closeQuietly(p) // reaps the driver's goroutines
	r.forgetProcess(p)
	r.mu.Lock()
	if r.proc == p {
		r.proc = nil
	}
	stopping := r.stopped || r.retired == p
	r.mu.Unlock()
	if stopping {
		return
	}
	r.log.Info("claude exited", "code", code, "signal", sig, "stderr", lastLines(p.Stderr(), 5))
	r.forgetPending(r.journal.pendingOf(p)...) // the exit ends them
	if err := r.journal.produce([]entry{{kind: kExit, frame: wire.ExitStatus(code, sig)}}); err != nil {
		r.log.Debug("exit after stop", "err", err)
	}
}
