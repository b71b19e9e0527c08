package claude

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
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
	if !p.waitExit(ctx, grace) {
		if ctx.Err() != nil {
			err = fmt.Errorf("close claude: %w", ctx.Err())
		}
		p.signalGroup(syscall.SIGTERM)
		if !p.waitExit(ctx, grace) {
			p.signalGroup(syscall.SIGKILL)
			<-p.done // SIGKILL cannot be ignored
		}
	}
	// Sweep what the CLI spawned and left behind (a background tool). The
	// group id cannot be reused while any member lives, and an empty group
	// just gives ESRCH.
	p.signalGroup(syscall.SIGKILL)
	close(p.quit)
	p.unblockReaders(grace)
	p.wg.Wait()
	closeAll(p.stdout, p.stderr)
	return err
}

func (p *Process) closeStdin() {
	p.mu.Lock()
	p.stdinClosed = true
	p.mu.Unlock()
	p.stdin.Close() // also fails a write stuck on a full pipe
}

// waitExit reports whether the process exited within d; ctx ending counts
// as "no".
func (p *Process) waitExit(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// unblockReaders gives the pipe readers the grace to reach EOF, then forces
// them out: a grandchild that escaped the group (setsid) may hold the pipes
// open forever.
func (p *Process) unblockReaders(grace time.Duration) {
	t := time.NewTimer(grace)
	defer t.Stop()
	for _, f := range []struct {
		done <-chan struct{}
		pipe *os.File
	}{{p.readDone, p.stdout}, {p.stderrDone, p.stderr}} {
		select {
		case <-f.done:
			continue
		case <-t.C:
		}
		f.pipe.SetReadDeadline(time.Now())
		t.Reset(0) // the grace is spent: force the other one too
	}
}

// SignalGroup sends sig to the CLI's process group: the CLI and the tools
// that stayed in its group. It returns os.ErrProcessDone when the group is
// empty.
func (p *Process) SignalGroup(sig syscall.Signal) error { return p.signalGroup(sig) }
