package launch

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"

	creack "github.com/creack/pty"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// Local starts processes on this machine, as the Spec says. The zero
// value is ready to use.
type Local struct{}

var _ Launcher = Local{}

// Start runs s here.
func (Local) Start(ctx context.Context, s Spec) (*Process, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = childproc.Env(s.baseEnv(), s.Marker)
	sig := s.Cancel
	if sig == 0 {
		sig = syscall.SIGKILL
	}
	cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, sig) }
	cmd.WaitDelay = s.WaitDelay
	p := &Process{cmd: cmd}
	if s.PTY {
		if err := p.startPTY(s); err != nil {
			return nil, err
		}
	} else if err := p.startPipes(s); err != nil {
		return nil, err
	}
	// Read before anything waits on the child, so the pid is still its own.
	p.ident = childproc.Identify(cmd.Process.Pid, s.Marker)
	return p, nil
}

func (s Spec) check() error {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return fmt.Errorf("start process: %w: no program", ErrInvalid)
	}
	if s.PTY && (s.Stdin != nil || s.Stdout != nil || s.Stderr != nil || s.StdoutPipe) {
		return fmt.Errorf("start %s: %w: a PTY child has no other standard files", s.Argv[0], ErrInvalid)
	}
	if s.StdoutPipe && s.Stdout != nil {
		return fmt.Errorf("start %s: %w: Stdout and StdoutPipe both set", s.Argv[0], ErrInvalid)
	}
	return nil
}

// startPTY starts the child on a new PTY. creack/pty sets Setsid and
// Setctty: the child leads a new session and process group.
func (p *Process) startPTY(s Spec) error {
	var ws *creack.Winsize
	if s.Cols > 0 && s.Rows > 0 {
		ws = &creack.Winsize{Cols: uint16(s.Cols), Rows: uint16(s.Rows)}
	}
	master, err := creack.StartWithSize(p.cmd, ws)
	if err != nil {
		return err
	}
	p.pty = master
	return nil
}

// startPipes starts the child in a process group of its own, so that
// signalling the group also reaches what it started (tools, hooks).
func (p *Process) startPipes(s Spec) error {
	cmd := p.cmd
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.Stdin, s.Stdout, s.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if s.StdoutPipe {
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		p.stdout = out
	}
	return cmd.Start()
}
