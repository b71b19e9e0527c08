package codex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/agentproc"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
)

// ErrExited is a call on a Process whose CLI has exited (or is closing).
var ErrExited = errors.New("codex exited")

// Options say how to start the CLI.
type Options struct {
	// Path is the CLI ("": DefaultPath, looked up on PATH).
	Path string
	// Overrides are `-c` values (Args).
	Overrides []string
	// Dir is the working directory; Env the complete environment
	// (ChildEnv; nil: ChildEnv of the server's own).
	Dir string
	Env []string
	// Marker is the worker's crash clean-up identity (AGENTDESK_WORKER).
	Marker string
	// Grace is how long Close waits after closing stdin, and after
	// SIGTERM, before the next step (default 5 s).
	Grace time.Duration
	// Tap, when not nil, is given every line in both directions ("stdin",
	// "stdout", "stderr"), before it is sent or handled: recordings. It
	// must not keep line.
	Tap func(dir string, line []byte)
}

func (o Options) grace() time.Duration {
	if o.Grace > 0 {
		return o.Grace
	}
	return 5 * time.Second
}

// Process is one running `codex app-server`. Create it with Start and
// always end it with Close, which reaps the child and waits for the
// goroutines Start began. All methods may be called concurrently; writes
// to stdin are serialized, a whole line each.
//
// Messages must be drained by one consumer: the stdout reader waits while
// a message is not taken, which pauses the CLI. Replies to Call are
// delivered by the reader itself, so a Call completes while the consumer
// is busy only when no message is waiting before its reply.
type Process struct {
	opts   Options
	proc   *launch.Process
	ident  childproc.Ident
	cancel context.CancelFunc // ends the launcher's context once all is over

	stdin          *os.File // write end of the child's stdin
	stdout, stderr *os.File // read ends
	writeMu        sync.Mutex

	msgs       chan Msg
	readDone   chan struct{} // closed after stdout EOF: no reply can come
	stderrDone chan struct{}
	done       chan struct{} // closed once the child is reaped
	quit       chan struct{} // closed by Close: stop delivering messages

	mu         sync.Mutex
	pending    map[string]chan envelope // call id → its reply
	nextID     int64
	exitCode   int
	exitSignal string
	stdinShut  bool

	stderrBuf agentproc.Tail
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Start resolves the CLI and has l (nil: launch.Local) run it with
// Args(o.Overrides) in its own process group, with pipes. ctx bounds the
// start only: the process lives until Close. It prints nothing before
// initialize.
func Start(ctx context.Context, l launch.Launcher, o Options) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path, err := Resolve(o.Path)
	if err != nil {
		return nil, err
	}
	if l == nil {
		l = launch.Local{}
	}
	env := o.Env
	if env == nil {
		env = ChildEnv(os.Environ(), "")
	}
	p := &Process{
		opts: o, msgs: make(chan Msg), readDone: make(chan struct{}), stderrDone: make(chan struct{}),
		done: make(chan struct{}), quit: make(chan struct{}), pending: make(map[string]chan envelope),
	}
	child, err := p.openPipes()
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(context.Background())
	proc, err := l.Start(lctx, launch.Spec{
		Argv: append([]string{path}, Args(o.Overrides)...), Env: env, Marker: o.Marker, Dir: o.Dir,
		Stdin: child[0], Stdout: child[1], Stderr: child[2],
		Cancel: syscall.SIGKILL, WaitDelay: o.grace(),
	})
	agentproc.CloseAll(child[:]...) // the child has its own copies; ours would hide EOF
	if err != nil {
		cancel()
		agentproc.CloseAll(p.stdin, p.stdout, p.stderr)
		return nil, fmt.Errorf("start codex: %w", err)
	}
	p.proc, p.ident, p.cancel = proc, proc.Ident(), cancel
	p.wg.Go(p.wait)
	p.wg.Go(p.readStdout)
	p.wg.Go(p.drainStderr)
	return p, nil
}

// openPipes creates the three pipes, keeps ours and returns the child's
// ends in stdin, stdout, stderr order.
func (p *Process) openPipes() ([3]*os.File, error) {
	child, ours, err := agentproc.OpenPipes()
	p.stdin, p.stdout, p.stderr = ours[0], ours[1], ours[2]
	return child, err
}

// wait is the only caller of the launched process's Wait.
func (p *Process) wait() {
	_ = p.proc.Wait() // the status is in State
	code, sig := exitStatus(p.proc.State())
	p.mu.Lock()
	p.exitCode, p.exitSignal = code, sig
	p.mu.Unlock()
	close(p.done)
}

func exitStatus(st *os.ProcessState) (int, string) {
	if st == nil {
		return -1, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, signalName(ws.Signal())
	}
	return st.ExitCode(), ""
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	}
	return fmt.Sprintf("signal %d", int(s))
}

// Messages delivers the CLI's notifications and requests, in order. It is
// closed after stdout ends, or after Close.
func (p *Process) Messages() <-chan Msg { return p.msgs }

// Done is closed once the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitStatus is the exit code, or -1 and the signal's name when a signal
// ended the process. It is valid after Done.
func (p *Process) ExitStatus() (int, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitCode, p.exitSignal
}

// Ident is the CLI's identity, read right after it started.
func (p *Process) Ident() childproc.Ident { return p.ident }

// Signal sends sig to the CLI's process group. It returns
// os.ErrProcessDone when the group is empty.
func (p *Process) Signal(sig syscall.Signal) error { return p.proc.Signal(sig) }

// Stderr is the tail of what the CLI wrote to stderr.
func (p *Process) Stderr() string { return p.stderrBuf.String() }
