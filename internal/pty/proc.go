package pty

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// drainTime bounds how long output is still read after the child exited.
// Without a bound, a background job holding the terminal open would keep
// Done from ever closing.
const drainTime = 250 * time.Millisecond

// Options configures Start.
type Options struct {
	Command []string // program and arguments; required
	Dir     string   // working directory; "" means the server's
	// Env is the child's environment; nil means the server's. Either way
	// every AGENTDESK_* variable is removed (childproc.Env).
	Env []string
	// Marker is the AGENTDESK_WORKER value the child gets ("" for none).
	Marker string
	// Cols and Rows set the initial size; either 0 leaves the kernel's default.
	Cols, Rows int
	// Launcher starts the process; nil means the local one.
	Launcher launch.Launcher
	Log      *Log // receives the output; required
	// OnOutput, when set, sees every chunk right after it is in the Log. It
	// runs on the reader goroutine: it must not block or keep p.
	OnOutput func(p []byte)
}

// Proc is a child process running in its own session and process group on
// a PTY. Its output goes to a Log.
//
// All methods are safe for concurrent use. Two goroutines are owned: one
// reads the PTY, one waits for the child; Stop waits for both.
type Proc struct {
	proc     *launch.Process
	ident    childproc.Ident
	pty      *os.File
	log      *Log
	onOutput func([]byte)

	done     chan struct{} // closed once the child is reaped and its output logged
	readDone chan struct{}
	wg       sync.WaitGroup

	mu    sync.Mutex
	state *os.ProcessState
}

// Start runs opts.Command on a new PTY. The child leads a new session and
// process group (pgid = pid) with the PTY as its controlling terminal.
func Start(opts Options) (*Proc, error) {
	if len(opts.Command) == 0 || opts.Command[0] == "" || opts.Log == nil {
		return nil, fmt.Errorf("start process: %w: command and log are required", wire.ErrInvalid)
	}
	l := opts.Launcher
	if l == nil {
		l = launch.Local{}
	}
	proc, err := l.Start(context.Background(), launch.Spec{
		Argv: opts.Command, Env: opts.Env, Marker: opts.Marker, Dir: opts.Dir,
		PTY: true, Cols: opts.Cols, Rows: opts.Rows,
	})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", opts.Command[0], err)
	}
	f, err := pollable(proc.PTY())
	if err != nil {
		_ = proc.Signal(syscall.SIGKILL)
		_ = proc.Wait()
		return nil, fmt.Errorf("start %s: %w", opts.Command[0], err)
	}
	p := &Proc{
		proc: proc, ident: proc.Ident(), pty: f, log: opts.Log, onOutput: opts.OnOutput,
		done: make(chan struct{}), readDone: make(chan struct{}),
	}
	p.wg.Go(p.read)
	p.wg.Go(p.wait)
	return p, nil
}

// pollable returns the PTY master as a non-blocking file in Go's poller.
// creack/pty calls Fd(), which leaves the file blocking: then neither a read
// deadline nor Close can end a Read stuck on a terminal that a background
// job keeps open.
func pollable(master *os.File) (*os.File, error) {
	defer master.Close()
	// F_DUPFD_CLOEXEC, not Dup: a child forked meanwhile must not inherit it.
	fd, err := unix.FcntlInt(master.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("dup pty: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("set pty non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), master.Name()), nil
}

// wait is the only caller of the launched process's Wait. Done closes
// after the reader has logged everything the child wrote.
func (p *Proc) wait() {
	_ = p.proc.Wait() // the exit status is in State
	_ = p.pty.SetReadDeadline(time.Now().Add(drainTime))
	<-p.readDone
	_ = p.pty.Close()
	p.mu.Lock()
	p.state = p.proc.State()
	p.mu.Unlock()
	close(p.done)
}

// Write sends input to the child. It blocks while the terminal's input
// queue is full (the child is not reading) until Stop closes the PTY.
func (p *Proc) Write(b []byte) (int, error) {
	n, err := p.pty.Write(b)
	if errors.Is(err, fs.ErrClosed) {
		return n, fmt.Errorf("write pty: %w", wire.ErrNotRunning)
	}
	if err != nil {
		return n, fmt.Errorf("write pty: %w", err)
	}
	return n, nil
}

// Resize sets the terminal size. A size with a zero dimension is ignored:
// the kernel would accept it and leave the child with an unusable screen.
func (p *Proc) Resize(cols, rows int) error {
	if cols <= 0 || rows <= 0 {
		return nil
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	sc, err := p.pty.SyscallConn()
	if err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	var ierr error
	if err := sc.Control(func(fd uintptr) {
		ierr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws)
	}); err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	if ierr != nil {
		return fmt.Errorf("resize pty: %w", ierr)
	}
	return nil
}

// Pid returns the child's pid, which is also its process group and
// session id.
func (p *Proc) Pid() int { return p.proc.Pid() }

// Ident is the child's identity, read right after it started: what a
// process record keeps.
func (p *Proc) Ident() childproc.Ident { return p.ident }

// Done is closed once the child has exited and all its output is in the Log.
func (p *Proc) Done() <-chan struct{} { return p.done }

// ExitStatus returns the exit code, or -1 and the signal name (SIGKILL...)
// when a signal ended the child. Before Done it returns -1, "".
func (p *Proc) ExitStatus() (code int, signal string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state == nil {
		return -1, ""
	}
	if ws, ok := p.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, unix.SignalName(ws.Signal())
	}
	return p.state.ExitCode(), ""
}
