package claude

import (
	"context"
	"fmt"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/agent/agentproc"
)

// Close ends the process and waits for everything Start began. It closes
// stdin (the CLI finishes a running turn and exits), waits up to the grace
// for the exit, then sends SIGTERM to the process group, waits the grace
// again, then sends SIGKILL. When ctx ends first it goes straight to
// SIGKILL and returns ctx's error. Whatever the CLI left in its group is
// killed too. Close is idempotent: later calls wait for the first and
// return its result.
func (p *Process) Close(ctx context.Context) error {
	p.closeOnce.Do(func() { p.closeErr = p.shutdown(ctx) })
	return p.closeErr
}

func (p *Process) shutdown(ctx context.Context) error {
	grace := p.opts.grace()
	p.closeStdin()
	var err error
	if !agentproc.WaitExit(ctx, p.done, grace) {
		if ctx.Err() != nil {
			err = fmt.Errorf("close claude: %w", ctx.Err())
		}
		p.signalGroup(syscall.SIGTERM)
		if !agentproc.WaitExit(ctx, p.done, grace) {
			p.signalGroup(syscall.SIGKILL)
			<-p.done // SIGKILL cannot be ignored
		}
	}
	// Sweep what the CLI spawned and left behind (a background tool). The
	// group id cannot be reused while any member lives, and an empty group
	// just gives ESRCH.
	p.signalGroup(syscall.SIGKILL)
	close(p.quit)
	agentproc.UnblockReaders(grace, agentproc.Reader{Done: p.readDone, Pipe: p.stdout}, agentproc.Reader{Done: p.stderrDone, Pipe: p.stderr})
	p.wg.Wait()
	agentproc.CloseAll(p.stdout, p.stderr)
	return err
}

func (p *Process) closeStdin() {
	p.mu.Lock()
	p.stdinClosed = true
	p.mu.Unlock()
	p.stdin.Close() // also fails a write stuck on a full pipe
}

// SignalGroup sends sig to the CLI's process group: the CLI and the tools
// that stayed in its group. It returns os.ErrProcessDone when the group is
// empty.
func (p *Process) SignalGroup(sig syscall.Signal) error { return p.signalGroup(sig) }
