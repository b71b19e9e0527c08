package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/agent/agentproc"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
)

// Process is one running CLI. Create it with Start and always end it with
// Close, which reaps the child and waits for the goroutines Start began.
//
// All methods may be called concurrently. Writes to stdin are serialized,
// each one a whole line. Batches must be drained by one
// consumer: the stdout reader stops while 4 MiB of lines wait, which
// pauses the CLI. Keep draining while Close runs (the CLI finishes its
// turn after stdin closes); once the process is gone, undelivered lines
// are dropped.
type Process struct {
	opts  Options
	proc  *launch.Process
	pid   int
	ident childproc.Ident
	stdin *os.File // write end of the child's stdin

	stdout, stderr *os.File // read ends

	writeMu sync.Mutex // serializes stdin writes

	read       chan Line     // the reader's lines, to forward
	room       chan credit   // forward's credit for the reader
	batches    chan []Line   // what forward passes on: Batches
	queued     atomic.Int64  // bytes of the lines forward holds
	readDone   chan struct{} // closed after stdout EOF, once pending replies are delivered
	stderrDone chan struct{} // closed after stderr EOF
	done       chan struct{} // closed once the child is reaped
	quit       chan struct{} // closed by Close: stop delivering lines

	mu          sync.Mutex
	pending     map[string]chan Line // control request id → its reply
	nextID      uint64
	exitCode    int
	exitSignal  string
	stdinClosed bool

	stderrBuf agentproc.Tail
	maxLine   int // MaxLineSize, read once at Start

	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Start is StartWith the local launcher.
func Start(ctx context.Context, o Options) (*Process, error) {
	return StartWith(ctx, launch.Local{}, o)
}

// StartWith checks that the CLI exists, then has l (nil: the local
// launcher) run it with Args(o) in its own process group. ctx bounds the whole life of the process: when it
// ends the group gets SIGTERM and, o.Grace later, the CLI is killed. The
// process prints nothing until it gets a user message or a control
// request.
func StartWith(ctx context.Context, l launch.Launcher, o Options) (*Process, error) {
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
		opts:       o,
		read:       make(chan Line),
		room:       make(chan credit),
		batches:    make(chan []Line),
		readDone:   make(chan struct{}),
		stderrDone: make(chan struct{}),
		done:       make(chan struct{}),
		quit:       make(chan struct{}),
		pending:    make(map[string]chan Line),
		maxLine:    maxLineSize,
	}
	child, err := p.openPipes()
	if err != nil {
		return nil, err
	}
	proc, err := l.Start(ctx, launch.Spec{
		Argv: append([]string{path}, Args(o)...), Env: env, Marker: o.Marker, Dir: o.Dir,
		Stdin: child[0], Stdout: child[1], Stderr: child[2],
		Cancel: syscall.SIGTERM, WaitDelay: o.grace(),
	})
	// The child has its own copies now; ours would hide EOF from the reader.
	agentproc.CloseAll(child[:]...)
	if err != nil {
		agentproc.CloseAll(p.stdin, p.stdout, p.stderr)
		return nil, fmt.Errorf("start claude: %w", err)
	}
	p.proc, p.pid, p.ident = proc, proc.Pid(), proc.Ident()
	p.wg.Go(p.wait)
	p.wg.Go(p.readStdout)
	p.wg.Go(func() { p.forward(p.read) })
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

// signalGroup signals the CLI's whole process group, so tools the CLI
// spawned go too. It returns os.ErrProcessDone when the group is empty.
func (p *Process) signalGroup(sig syscall.Signal) error { return p.proc.Signal(sig) }

// wait is the only caller of the launched process's Wait.
func (p *Process) wait() {
	_ = p.proc.Wait() // the status is in State; the error adds nothing
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

var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGABRT: "SIGABRT", syscall.SIGKILL: "SIGKILL", syscall.SIGSEGV: "SIGSEGV",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGTERM: "SIGTERM", syscall.SIGBUS: "SIGBUS",
}

func signalName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

// Ident is the identity of the process the launcher tracks (the CLI, or
// the sandbox running it), read right after it started: what a process
// record keeps.
func (p *Process) Ident() childproc.Ident { return p.ident }

// Program is the pid of the CLI itself (launch.Process.Program): Ident's
// when nothing wraps it; 0 while a wrapper has not started it yet.
func (p *Process) Program() int { return p.proc.Program() }

// Batches delivers every stdout line in order, except the control_response
// lines answering this driver's own Control calls, as batches: each one
// holds every line read and not yet taken (at most 256 lines, and 4 MiB
// plus one line); the receiver owns it. CLI-initiated control_request
// lines (can_use_tool) are delivered; answer them with Respond. The
// channel is closed after stdout EOF, or after Close.
func (p *Process) Batches() <-chan []Line { return p.batches }

// Done is closed once the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitStatus is the exit code, or -1 and the signal name ("SIGKILL") when a
// signal ended the process. It is valid after Done.
func (p *Process) ExitStatus() (code int, signal string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitCode, p.exitSignal
}

// Stderr returns the last 64 KiB the CLI wrote to stderr.
func (p *Process) Stderr() string { return p.stderrBuf.String() }

// exitErr describes the exit when it is already known: ErrExited with the
// status and the tail of stderr, for errors a user may read.
func (p *Process) exitErr() error {
	select {
	case <-p.done:
	default:
		return ErrExited
	}
	code, sig := p.ExitStatus()
	status := fmt.Sprintf("exit code %d", code)
	if sig != "" {
		status = "killed by " + sig
	}
	if tail := lastLines(p.Stderr(), 5); tail != "" {
		return fmt.Errorf("%w (%s): %s", ErrExited, status, tail)
	}
	return fmt.Errorf("%w (%s)", ErrExited, status)
}

// rawResponse is a control_response as the CLI sends it.
type rawResponse struct {
	Response struct {
		Subtype   string          `json:"subtype"`
		RequestID string          `json:"request_id"`
		Response  json.RawMessage `json:"response"`
		Error     string          `json:"error"`
		ErrorCode string          `json:"error_code"`
	} `json:"response"`
}
