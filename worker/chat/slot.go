package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// startTimeout bounds the agent's start, its handshake included (the
// driver may bound it more tightly).
const startTimeout = 2 * time.Minute

// closeTimeout bounds closing an agent that failed at start-up.
const closeTimeout = 10 * time.Second

// slot holds the worker's live agent: it starts one when a message needs
// it (the conversation is resumed once it exists, so a restored worker
// costs nothing until used), runs its reader, and drops it when it exits
// or is retired. Safe for concurrent use; ensure is called under the
// sender's lock.
type slot struct {
	driver agent.Driver
	env    *worker.Env     // the Runtime's: Launcher, Config.ChildEnv, Session.Cwd, Marker, Report, ConversationStarted, SetClaudeSession
	ctx    context.Context // bounds the starts; cancelled by the worker's Stop
	log    *slog.Logger
	j      *journal
	reqs   *requests
	prefs  *prefs
	in     intake  // the readers' translation of events into entries
	rec    records // the process record
	gate   *gate
	follow *follower

	mu        sync.Mutex // guards the fields below
	conv      string     // the conversation the agents run
	conn      agent.Conn
	resume    bool               // the conversation exists: resume it
	closed    bool               // Stop began: no agent starts
	abortInit context.CancelFunc // cancels a start under way
	started   bool               // the conversation is recorded as started
	retired   agent.Conn         // ended on purpose (SetRules): no exit frame

	readers sync.WaitGroup // one per agent; Go only under mu while !closed
}

// current returns the running agent, nil when none runs.
func (s *slot) current() agent.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// pid is the running agent's tracked pid, 0 when none runs.
func (s *slot) pid() int {
	id, _ := s.tracked()
	return id.Pid
}

// tracked is the running agent's tracked process (the agent, or the
// sandbox that runs it) and the pid of the agent's own program; zero when
// none runs.
func (s *slot) tracked() (childproc.Ident, int) {
	p := s.current()
	if p == nil {
		return childproc.Ident{}, 0
	}
	id := p.Ident()
	if w, ok := p.(agent.Wrapped); ok {
		return id, w.Program()
	}
	return id, id.Pid
}

func (s *slot) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// ensure returns the running agent, starting one first when there is
// none. The caller holds the sender's lock.
func (s *slot) ensure() (agent.Conn, error) {
	s.mu.Lock()
	p, resume, closed := s.conn, s.resume, s.closed
	s.mu.Unlock()
	if closed {
		return nil, errStopped
	}
	if p != nil {
		return p, nil
	}
	if err := s.follow.refusal(); err != nil {
		return nil, err
	}
	if s.gate.cancelled() {
		return nil, errSendCancelled // no agent to start for a cancelled message
	}
	p, err := s.start(resume)
	var be *budgetError
	if errors.As(err, &be) {
		return nil, err // no failure: the sender stores the limit reached
	}
	if err != nil {
		if s.isClosed() {
			return nil, errStopped
		}
		if s.gate.cancelled() {
			return nil, errSendCancelled
		}
		return nil, s.startFailed(err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		closeQuietly(p)
		s.rec.forget(p.Ident())
		return nil, errStopped
	}
	s.conn, s.resume = p, true
	s.readers.Go(func() {
		s.in.consume(p, p.Events())
		s.exited(p)
	})
	s.mu.Unlock()
	s.reportRunning() // error → running after a failed start
	return p, nil
}

// start has the driver run the agent and waits until it is ready. A Stop
// or a Cancel meanwhile aborts the start (abort).
func (s *slot) start(resume bool) (agent.Conn, error) {
	set, allowed := s.prefs.startFlags()
	limits, tools, servers, err := startLimits(s.prefs, s.env)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(s.ctx, startTimeout)
	defer cancel()
	s.mu.Lock()
	s.abortInit = cancel
	closed, conv := s.closed, s.conv
	s.mu.Unlock()
	if closed || s.gate.cancelled() {
		cancel()
	}
	l := &recorder{inner: s.env.Launcher, rs: &s.rec}
	p, err := s.driver.Start(ctx, agent.Options{
		Conversation: conv,
		Resume:       resume,
		Dir:          s.env.Session.Cwd,
		Env:          s.env.Config.ChildEnv,
		Marker:       s.env.Marker,
		Launcher:     l,
		Settings:     agent.Settings{Model: set.Model, PermissionMode: set.PermissionMode},
		AllowedTools: allowed,
		Tools:        tools,
		Limits:       limits,
		MCPServers:   servers,
		AllowBypass:  s.env.Session.Sandboxed(),
		Log:          s.log,
	})
	s.mu.Lock()
	s.abortInit = nil
	s.mu.Unlock()
	if err != nil {
		l.forgetAll()
		return nil, err
	}
	s.prefs.setCapabilities(p.Capabilities())
	s.named(p, conv)
	return p, nil
}

// named records the conversation an agent that names it runs
// (agent.Named), when it is not the one asked for: a new one it created,
// or one it started anew. The next agents resume that one, and a message
// must go to it before it counts as started.
func (s *slot) named(p agent.Conn, asked string) {
	n, ok := p.(agent.Named)
	if !ok {
		return
	}
	id := n.Conversation()
	if id == "" || id == asked {
		return
	}
	s.mu.Lock()
	s.conv, s.started = id, false
	s.mu.Unlock()
	if s.env.SetClaudeSession != nil {
		s.env.SetClaudeSession(id)
	}
}

// conversation is the conversation the agents run.
func (s *slot) conversation() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conv
}

// abort cancels a start under way (a Cancel of the message that wanted
// it).
func (s *slot) abort() {
	s.mu.Lock()
	if s.abortInit != nil {
		s.abortInit()
	}
	s.mu.Unlock()
}

// close marks the slot closed for Stop (no agent starts any more, one
// starting is aborted) and returns the running agent, if any; wait waits
// for the readers.
func (s *slot) close() agent.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.abortInit != nil {
		s.abortInit()
	}
	return s.conn
}

func (s *slot) wait() { s.readers.Wait() }

// startFailed tells the tabs and the manager why the agent could not
// start (the driver's words), and ends the turn: the message that wanted
// it stays stored, but no agent will answer it. The error stays in the
// worker's record until a start succeeds. The worker stays usable: the
// next user message tries again.
func (s *slot) startFailed(err error) error {
	code, msg := wire.CodeClaudeExited, err.Error()
	if errors.Is(err, agent.ErrNotFound) {
		code = wire.CodeClaudeNotFound
		err = fmt.Errorf("%w: %w", worker.ErrClaudeAbsent, err)
	} else {
		err = &worker.CodeError{Code: code, Err: errors.New(msg)}
	}
	// The worker's status says error before any tab sees the error
	// frame, so a tab that reads the worker after the frame finds it.
	if s.env.Report != nil {
		s.env.Report.Failed(errors.New(msg))
	}
	if perr := s.j.produce([]entry{{kind: kExit, frame: wire.Error(code, msg)}}); perr != nil {
		s.log.Debug("start failure after stop", "err", perr)
	}
	return reportedError{fmt.Errorf("start the agent: %w", err)}
}

// reportRunning tells the manager the worker runs (a bare Env, in
// benchmarks, has no reporter).
func (s *slot) reportRunning() {
	if s.env.Report != nil {
		s.env.Report.Running()
	}
}

// exited is called by the reader once p's output ended: the agent is
// gone. Tabs get an exit frame (unless the worker is stopping) and the
// next user message starts a new agent that resumes the conversation.
func (s *slot) exited(p agent.Conn) {
	<-p.Done()
	code, sig := p.ExitStatus()
	closeQuietly(p) // reaps the driver's goroutines
	s.rec.forget(p.Ident())
	s.mu.Lock()
	if s.conn == p {
		s.conn = nil
	}
	stopping := s.closed || s.retired == p
	s.mu.Unlock()
	if stopping {
		return
	}
	s.log.Info("agent exited", "code", code, "signal", sig, "stderr", lastLines(p.Stderr(), 5))
	s.reqs.forget(s.j.pendingOf(p)...) // the exit ends them
	if err := s.j.produce([]entry{{kind: kExit, frame: wire.ExitStatus(code, sig)}}); err != nil {
		s.log.Debug("exit after stop", "err", err)
	}
}

// forget waits (bounded) for a dead agent to be reaped and drops it, so
// that ensure starts another.
func (s *slot) forget(p agent.Conn) {
	select {
	case <-p.Done():
	case <-time.After(closeTimeout):
	}
	s.mu.Lock()
	if s.conn == p {
		s.conn = nil
	}
	s.mu.Unlock()
}

// retire marks the running agent as ended on purpose (its exit is no
// news) and returns it; nil when none runs.
func (s *slot) retire() agent.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.retired = s.conn
	return s.conn
}

// markStarted records, once, that the conversation has begun: an agent
// got a message of it, so later agent workers resume it.
func (s *slot) markStarted() {
	s.mu.Lock()
	done := s.started
	s.started = true
	s.mu.Unlock()
	if !done && s.env.ConversationStarted != nil {
		s.env.ConversationStarted()
	}
}

func closeQuietly(p agent.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	_ = p.Close(ctx)
}
