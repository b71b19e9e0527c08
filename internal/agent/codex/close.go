package codex

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
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
	if !p.waitExit(ctx, grace) {
		if ctx.Err() != nil {
			err = fmt.Errorf("close codex: %w", ctx.Err())
		}
		p.Signal(syscall.SIGTERM)
		if !p.waitExit(ctx, grace) {
			p.Signal(syscall.SIGKILL)
			<-p.done // SIGKILL cannot be ignored
		}
	}
	// Sweep what the CLI left in its group; an empty group gives ESRCH.
	p.Signal(syscall.SIGKILL)
	close(p.quit)
	p.unblockReaders(grace)
	p.wg.Wait()
	closeAll(p.stdout, p.stderr)
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

// unblockReaders gives the pipe readers the grace to reach EOF, then
// forces them out: a grandchild that left the group (a command Codex ran
// in its own PTY session) may hold the pipes open for ever.
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

// stderrCap is how much stderr a Process keeps.
const stderrCap = 64 << 10

// ring keeps the last stderrCap bytes written to it. Safe for concurrent
// use.
type ring struct {
	mu  sync.Mutex
	buf []byte
}

func (r *ring) Write(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, b...)
	if len(r.buf) > 2*stderrCap { // trim rarely: amortized O(1)
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-stderrCap:]...)
	}
}

func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf[max(0, len(r.buf)-stderrCap):])
}
