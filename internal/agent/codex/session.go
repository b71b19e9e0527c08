package codex

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

// SessionOptions say which thread a Session runs and how.
type SessionOptions struct {
	Process Options
	// Thread is the thread to resume; "" starts a new one. A thread Codex
	// has no record of (its rollout file is gone) is started anew: the
	// Session's Thread then says the new id.
	Thread string
	// Settings are the model and approval policy to start with ("": the
	// user's config, else Codex's default); Sandbox the sandbox mode
	// (default workspace-write).
	Settings Settings
	Sandbox  string
	// Allowed are rules allowed without asking (rules a person allowed
	// for the session before a restart).
	Allowed []Rule
	// ClientName and ClientVersion introduce agentdesk in initialize.
	ClientName, ClientVersion string
	// Tools, when set, are the tools of the bridge (internal/toolbridge)
	// the thread is given as dynamic tools, those ToolScope sees.
	Tools     *toolbridge.Registry
	ToolScope string
	// DeveloperInstructions are added to Codex's instructions (the
	// session's appendSystemPrompt); Config are the thread's config
	// overrides (ThreadConfig: MCP servers, writable roots).
	DeveloperInstructions string
	Config                map[string]any
	// Limits bound each turn and the process (limits.go).
	Limits Limits
}

// DefaultSandbox is the sandbox a Session asks for unless told otherwise:
// Codex may write in the session's directory (and /tmp), not elsewhere,
// and has no network.
const DefaultSandbox = "workspace-write"

// FullAccess is the sandbox mode without Codex's own sandbox: commands run
// with the rights of the CLI itself (danger-full-access). agentdesk asks
// for it only for a chat that runs inside its own box.
const FullAccess = "danger-full-access"

// maxBatch bounds a batch of Outs: entries, then bytes.
const (
	maxBatch      = 256
	maxBatchBytes = 4 << 20
)

// Session is one running app-server with one thread: what a chat worker
// drives. Its methods are safe for concurrent use; Out must be drained by
// one consumer until it is closed (after the CLI's output ended, or
// Close).
type Session struct {
	p        *Process
	models   []ModelInfo
	out      chan []Out
	quit     chan struct{}
	quitOnce sync.Once
	wg       sync.WaitGroup
	resume   error    // why the thread asked for could not be resumed (then started anew)
	tools    *bridge  // nil without Tools
	extra    chan Out // what the Session says itself (limits.go), into the pump

	mu   sync.Mutex
	tr   *Translator
	turn string   // the running turn, "" when idle
	next Settings // what the next turn/start changes
}

// Open starts the CLI, makes the handshake, lists the models and starts or
// resumes the thread. ctx bounds all that; on failure nothing is left
// running and the error says why, with the CLI's last words.
func Open(ctx context.Context, l launch.Launcher, o SessionOptions) (*Session, error) {
	p, err := Start(ctx, l, o.Process)
	if err != nil {
		return nil, err
	}
	s := &Session{p: p, out: make(chan []Out), quit: make(chan struct{}), extra: make(chan Out)}
	if o.Tools != nil {
		s.tools = newBridge(o.Tools, o.ToolScope)
	}
	// The pump drains from the start: Codex may say things before it
	// answers (a warning), and the reader must not wait on them.
	boot := make(chan Msg, 64)
	s.wg.Go(func() { s.early(boot) })
	t, err := s.handshake(ctx, o)
	if err != nil {
		s.tools.stop()
		cerr := p.Close(context.Background())
		close(s.quit)
		s.wg.Wait()
		return nil, fmt.Errorf("%w%s", err, lastWords(p.Stderr(), cerr))
	}
	s.tr = NewTranslator(t)
	s.tr.Allow(o.Allowed...)
	s.tr.lim.Limits = o.Limits
	if s.tools != nil {
		s.tr.BridgeNames(s.tools.provider)
	}
	close(boot) // hands over to the pump
	return s, nil
}

// early keeps the notifications Codex sends before the thread is open,
// then becomes the pump, feeding them first.
func (s *Session) early(boot chan Msg) {
	var held []Msg
	msgs := s.p.Messages()
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				msgs = nil
				continue
			}
			held = append(held, m)
		case _, open := <-boot:
			if !open {
				s.pump(held, msgs)
				return
			}
		case <-s.quit:
			return
		}
	}
}

func (s *Session) handshake(ctx context.Context, o SessionOptions) (Thread, error) {
	name, version := o.ClientName, o.ClientVersion
	if name == "" {
		name, version = "agentdesk", "dev"
	}
	// Dynamic tools need the experimental API; a chat without any keeps to
	// the stable one. A resumed thread keeps the tools it was started
	// with, which may be called even when none is registered now.
	decl := s.tools.declare()
	experimental := len(decl) > 0 || (s.tools != nil && o.Thread != "")
	if err := s.p.Initialize(ctx, name, version, experimental); err != nil {
		return Thread{}, fmt.Errorf("codex did not start: %w", err)
	}
	models, err := s.p.Models(ctx)
	if err != nil {
		return Thread{}, err
	}
	s.models = models
	sandbox := o.Sandbox
	if sandbox == "" {
		sandbox = DefaultSandbox
	}
	tp := ThreadParams{Cwd: o.Process.Dir, Model: o.Settings.Model, ApprovalPolicy: o.Settings.Policy, Sandbox: sandbox}
	tp.DynamicTools = decl
	tp.DeveloperInstructions, tp.Config = o.DeveloperInstructions, o.Config
	if o.Thread != "" {
		t, err := s.p.ResumeThread(ctx, o.Thread, tp)
		var rpc *RPCError
		if err == nil || !errors.As(err, &rpc) {
			return t, err
		}
		s.resume = err // believe Codex: it has no such thread
	}
	return s.p.StartThread(ctx, tp)
}

// lastWords adds the end of the CLI's stderr to an error.
func lastWords(stderr string, closeErr error) string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	lines = lines[max(0, len(lines)-3):]
	if closeErr != nil {
		lines = append(lines, closeErr.Error())
	}
	if len(lines) == 0 {
		return ""
	}
	return "; codex said: " + strings.Join(lines, " | ")
}

// Thread is the thread's id.
func (s *Session) Thread() string { return s.tr.Thread() }

// Resumed reports why the thread Open was asked to resume was started
// anew instead (nil: it was resumed, or none was asked for).
func (s *Session) Resumed() error { return s.resume }

// Models are the models Codex offers.
func (s *Session) Models() []ModelInfo { return s.models }

// InForce is what the thread runs with now.
func (s *Session) InForce() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tr.InForce()
}

// Out delivers what the Translator made of Codex's messages, in batches.
func (s *Session) Out() <-chan []Out { return s.out }

// Done is closed once the CLI has exited.
func (s *Session) Done() <-chan struct{} { return s.p.Done() }

// ExitStatus is the CLI's exit code, or -1 and the signal's name.
func (s *Session) ExitStatus() (int, string) { return s.p.ExitStatus() }

// Ident is the CLI's identity.
func (s *Session) Ident() childproc.Ident { return s.p.Ident() }

// Signal sends sig to the CLI's process group.
func (s *Session) Signal(sig syscall.Signal) error { return s.p.Signal(sig) }

// Stderr is the tail of the CLI's stderr.
func (s *Session) Stderr() string { return s.p.Stderr() }

// Close ends the CLI (Process.Close) and waits for the pump; what it had
// not passed on by then is dropped. Idempotent.
func (s *Session) Close(ctx context.Context) error {
	s.tools.stop() // cancels the calls in flight: their goroutines end
	err := s.p.Close(ctx)
	s.quitOnce.Do(func() { close(s.quit) })
	s.wg.Wait()
	return err
}
