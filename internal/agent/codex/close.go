package codex

import (
	"context"
	"fmt"
	"syscall"

	"github.com/agentdesk/agentdesk/internal/agent/agentproc"
)

// Close ends the process and waits for everything Start began. It closes
// stdin (app-server exits at its end), waits up to the grace for the exit,
// then sends SIGTERM to the process group, waits the grace again, then
// sends SIGKILL. When ctx ends first it goes straight to SIGKILL and
// returns ctx's error. What the CLI left in its group is killed too.
// Close is idempotent: later calls wait for the first and return its
// result.
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
			err = fmt.Errorf("close codex: %w", ctx.Err())
		}
		p.Signal(syscall.SIGTERM)
		if !agentproc.WaitExit(ctx, p.done, grace) {
			p.Signal(syscall.SIGKILL)
			<-p.done // SIGKILL cannot be ignored
		}
	}
	// Sweep what the CLI left in its group; an empty group gives ESRCH.
	p.Signal(syscall.SIGKILL)
	close(p.quit)
	agentproc.UnblockReaders(grace, agentproc.Reader{Done: p.readDone, Pipe: p.stdout}, agentproc.Reader{Done: p.stderrDone, Pipe: p.stderr})
	p.wg.Wait()
	agentproc.CloseAll(p.stdout, p.stderr)
	p.cancel()
	return err
}

func (p *Process) closeStdin() {
	p.writeMu.Lock() // no write is half done
	defer p.writeMu.Unlock()
	p.mu.Lock()
	p.stdinShut = true
	p.mu.Unlock()
	p.stdin.Close()
}
