// Package launch is the one place agentdesk starts a process: the claude
// CLI, a PTY worker's program (a shell, the CLI's TUI, a setup command)
// and git. A caller describes what to run in a Spec and hands it to a
// Launcher; it gets back a Process, whatever the launcher did to run it.
//
// Local runs the Spec on this machine as given. Other launchers (a
// bubblewrap sandbox, an SSH host) belong in this package too: such a
// launcher rewrites the Spec (argv behind `bwrap … --` or `ssh … --`, its
// own environment, binds), starts the result with Local, and sets which
// process the handle tracks when that is not the direct child. Callers
// never know which launcher ran them.
//
// Every child leads its own process group (pgid = pid); a PTY child also
// leads its own session with the PTY as its controlling terminal. Every
// child's environment is scrubbed of agentdesk's own variables and carries
// the worker's marker (internal/childproc).
package launch

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// Launcher starts processes. Implementations are safe for concurrent use.
type Launcher interface {
	// Start runs s. ctx bounds the whole life of the process: when it ends
	// the process group gets s.Cancel (see Spec). Start returns once the
	// process runs; errors (a missing program, a bad directory) are
	// returned, never reported later.
	Start(ctx context.Context, s Spec) (*Process, error)
}

// Spec is one process to start.
type Spec struct {
	// Argv is the program and its arguments; required. A program without a
	// slash is looked up in PATH.
	Argv []string
	// Env is the child's environment before scrubbing; nil means the
	// server's. Start removes every AGENTDESK_* variable and adds the
	// marker (childproc.Env), so that no child sees the server's secrets,
	// whatever the caller passed.
	Env []string
	// Marker is the AGENTDESK_WORKER value the child gets ("" for none),
	// also kept in the Process's identity.
	Marker string
	// Dir is the working directory; "" means the server's.
	Dir string

	// PTY starts the child on a new pseudo-terminal, as the leader of a
	// new session; Process.PTY is then its master. Cols and Rows are the
	// initial size (either 0 leaves the kernel's default). A PTY child has
	// no Stdin, Stdout, Stderr or StdoutPipe.
	PTY        bool
	Cols, Rows int

	// Stdin, Stdout and Stderr are the child's standard files, as in
	// os/exec: an *os.File is handed to the child as is, any other value
	// is copied by a goroutine that Wait waits for; nil means /dev/null.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StdoutPipe makes Process.Stdout a pipe from the child's stdout
	// (Stdout must then be nil). Wait closes it: read it to the end first.
	StdoutPipe bool

	// Cancel is the signal the process group gets when ctx ends; 0 means
	// SIGKILL.
	Cancel syscall.Signal
	// WaitDelay bounds how long Wait waits, once ctx ended, for the
	// process to exit and its I/O to close: then the child is killed and
	// the pipes the launcher made are closed (os/exec's Cmd.WaitDelay). 0
	// waits for ever.
	WaitDelay time.Duration
}

// ErrInvalid is a Spec that cannot be started as it is.
var ErrInvalid = errors.New("invalid process spec")

// Process is a started child. Exactly one goroutine calls Wait; the other
// methods are safe for concurrent use.
type Process struct {
	cmd    *exec.Cmd
	pty    *os.File
	stdout io.ReadCloser
	ident  childproc.Ident

	findProgram func() int // set by a wrapping launcher (FindProgram)
}

// Pid is the pid of the process the handle tracks, which leads its
// process group (and, on a PTY, its session).
func (p *Process) Pid() int { return p.ident.Pid }

// Program is the pid of the process running the Spec's Argv: Pid for a
// process started as it is, a descendant of it when a launcher wrapped
// the program (bwrap runs it two levels down). 0 while it is not known:
// the wrapper has not started it yet, or it is gone. A watchdog that
// counts what the program's tools do leaves this one out.
func (p *Process) Program() int {
	if p.findProgram == nil {
		return p.ident.Pid
	}
	return p.findProgram()
}

// FindProgram is for launchers that wrap the program (see Program): find
// returns its pid, or 0 while there is none. Call it before handing p to
// the caller.
func (p *Process) FindProgram(find func() int) { p.findProgram = find }

// Ident is the identity of the tracked process, read right after it
// started (before anything waited on it, so the pid was still its own):
// what a process record keeps.
func (p *Process) Ident() childproc.Ident { return p.ident }

// PTY is the master side of the child's terminal (nil without Spec.PTY).
// The caller owns it and closes it.
func (p *Process) PTY() *os.File { return p.pty }

// Stdout is the pipe from the child's stdout (nil without
// Spec.StdoutPipe). Wait closes it.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Wait waits for the child to exit and for the copying of its I/O, and
// returns os/exec's error: nil, an *exec.ExitError for a failing status,
// or an I/O error. It must be called exactly once, by one goroutine.
func (p *Process) Wait() error { return p.cmd.Wait() }

// State is the exit status, once Wait returned (nil before).
func (p *Process) State() *os.ProcessState { return p.cmd.ProcessState }

// Signal sends sig to the child's process group: the child and what it
// started that stayed in its group. It returns os.ErrProcessDone when the
// group is empty. The group id stays the child's until it is reaped and
// its group is empty, so signal only before Wait returned.
func (p *Process) Signal(sig syscall.Signal) error { return signalGroup(p.ident.Pid, sig) }

func signalGroup(pid int, sig syscall.Signal) error {
	err := syscall.Kill(-pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// baseEnv is the environment Start scrubs: Env, or the server's.
func (s Spec) baseEnv() []string {
	if s.Env == nil {
		return os.Environ()
	}
	return s.Env
}
