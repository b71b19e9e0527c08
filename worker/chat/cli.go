package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// startTimeout bounds the agent's start, its handshake included (the
// driver may bound it more tightly).
const startTimeout = 2 * time.Minute

// closeTimeout bounds closing an agent that failed at start-up.
const closeTimeout = 10 * time.Second

// reportedError is an error the tabs were already told about with an error
// frame, so the WebSocket edge need not answer it again.
type reportedError struct{ err error }

func (e reportedError) Error() string { return e.err.Error() }
func (e reportedError) Unwrap() error { return e.err }

// ensureProcess returns the running agent, starting it first when there
// is none. The caller holds sendMu.
func (r *Runtime) ensureProcess() (agent.Conn, error) {
	r.mu.Lock()
	p, resume, stopped := r.proc, r.resume, r.stopped
	r.mu.Unlock()
	if stopped {
		return nil, errStopped
	}
	if p != nil {
		return p, nil
	}
	if err := r.followErr(); err != nil {
		return nil, err
	}
	if r.sendCancelled() {
		return nil, errSendCancelled // no agent to start for a cancelled message
	}
	p, err := r.start(resume)
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
		r.forgetProcess(p.Ident())
		return nil, errStopped
	}
	r.proc, r.resume = p, true
	r.readers.Go(func() { r.read(p) })
	r.mu.Unlock()
	r.reportRunning() // error → running after a failed start
	return p, nil
}

// start has the driver run the agent and waits until it is ready. A Stop
// or a Cancel meanwhile aborts the start (abortInit).
func (r *Runtime) start(resume bool) (agent.Conn, error) {
	set, tools := r.startFlags()
	ctx, cancel := context.WithTimeout(r.ctx, startTimeout)
	defer cancel()
	r.mu.Lock()
	r.abortInit = cancel
	stopped := r.stopped
	r.mu.Unlock()
	if stopped || r.sendCancelled() {
		cancel()
	}
	rec := &recorder{inner: r.env.Launcher, r: r}
	p, err := r.driver.Start(ctx, agent.Options{
		Conversation: r.conv,
		Resume:       resume,
		Dir:          r.env.Session.Cwd,
		Env:          r.env.Config.ChildEnv,
		Marker:       r.env.Marker,
		Launcher:     rec,
		Settings:     agent.Settings{Model: set.Model, PermissionMode: set.PermissionMode},
		AllowedTools: tools,
		Log:          r.log,
	})
	r.mu.Lock()
	r.abortInit = nil
	r.mu.Unlock()
	if err != nil {
		rec.forgetAll()
		return nil, err
	}
	r.setCapabilities(p.Capabilities())
	return p, nil
}

// recorder is the launcher of one start: every process it starts is
// recorded at once, before the agent's handshake (which can take seconds)
// and before the reader runs (its exit deletes the record), so that the
// next start of the server ends the agent and its tools if the server
// dies meanwhile.
type recorder struct {
	inner launch.Launcher
	r     *Runtime

	mu      sync.Mutex
	started []childproc.Ident
}

func (l *recorder) Start(ctx context.Context, s launch.Spec) (*launch.Process, error) {
	inner := l.inner
	if inner == nil {
		inner = launch.Local{}
	}
	p, err := inner.Start(ctx, s)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.started = append(l.started, p.Ident())
	l.mu.Unlock()
	l.r.recordProcess(p.Ident())
	return p, nil
}

// forgetAll deletes the records of a start that failed.
func (l *recorder) forgetAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range l.started {
		l.r.forgetProcess(id)
	}
}

func (r *Runtime) isStopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}

// recordProcess stores id as the worker's process record.
func (r *Runtime) recordProcess(id childproc.Ident) {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	r.recorded = id
	if err := r.env.RecordProcess(id); err != nil {
		r.log.Warn("record agent process", "err", err)
	}
}

// forgetProcess deletes the record of id, a process that is gone, unless a
// newer process's record replaced it: a dead agent's reader may finish
// after the next agent started (SendUser starts one as soon as a write
// fails).
func (r *Runtime) forgetProcess(id childproc.Ident) {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	if r.recorded != id || id == (childproc.Ident{}) {
		return
	}
	r.recorded = childproc.Ident{}
	if err := r.env.Store.DeleteProcess(r.env.Info.ID); err != nil {
		r.log.Warn("forget agent process", "err", err)
	}
}

func closeQuietly(p agent.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	_ = p.Close(ctx)
}

// errSendCancelled is a Cancel that came before the agent got the message.
var errSendCancelled = errors.New("cancelled before the agent got the message")

// sendCancelled reports whether Cancel stopped the message on its way.
func (r *Runtime) sendCancelled() bool {
	r.cancelMu.Lock()
	defer r.cancelMu.Unlock()
	return r.cancelSend
}

// startFailed tells the tabs and the manager why the agent could not
// start (the driver's words), and ends the turn: the message that wanted
// it stays stored, but no agent will answer it. The error stays in the
// worker's record until a start succeeds. The worker stays usable: the
// next user message tries again.
func (r *Runtime) startFailed(err error) error {
	code, msg := wire.CodeClaudeExited, err.Error()
	if errors.Is(err, agent.ErrNotFound) {
		code = wire.CodeClaudeNotFound
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
	return reportedError{fmt.Errorf("start the agent: %w", err)}
}

// lastLines returns the last n non-empty lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// exited is called by the reader once p's output ended: the agent is
// gone. Tabs get an exit frame (unless the worker is stopping) and the
// next user message starts a new agent that resumes the conversation.
func (r *Runtime) exited(p agent.Conn) {
	<-p.Done()
	code, sig := p.ExitStatus()
	closeQuietly(p) // reaps the driver's goroutines
	r.forgetProcess(p.Ident())
	r.mu.Lock()
	if r.proc == p {
		r.proc = nil
	}
	stopping := r.stopped || r.retired == p
	r.mu.Unlock()
	if stopping {
		return
	}
	r.log.Info("agent exited", "code", code, "signal", sig, "stderr", lastLines(p.Stderr(), 5))
	r.forgetPending(r.journal.pendingOf(p)...) // the exit ends them
	if err := r.journal.produce([]entry{{kind: kExit, frame: wire.ExitStatus(code, sig)}}); err != nil {
		r.log.Debug("exit after stop", "err", err)
	}
}
