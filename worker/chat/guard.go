package chat

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/childproc"
)

// guard watches over a worker's running turns: the stall watchdog
// (stall.go) raises a stall when a turn makes no progress, and the
// escalating Stop (stop.go) ends a turn on Cancel, from the interrupt to
// SIGKILL. Both wait on the guard's clock and end when Stop begins. Safe
// for concurrent use.
type guard struct {
	j        *journal
	clock    clock                         // the waits' time; tests set a fake one before any turn
	after    time.Duration                 // worker.Config.StallAfter; 0: no watchdog
	marker   string                        // the worker's process marker; "": none
	tracked  func() (childproc.Ident, int) // the running agent's tracked process and program pid (slot.tracked); the program's own CPU does not count
	ctx      context.Context               // bounds the interrupt calls
	stopping <-chan struct{}
	log      *slog.Logger

	lastOut atomic.Int64 // clock time (Unix ns) of the agent's last output
	stallMu sync.Mutex   // orders the raise and the clear of a stall
	stalled atomic.Bool  // a stall was raised and not cleared

	mu       sync.Mutex // guards the fields below and the halts' forced
	watching bool       // the watchdog runs
	halting  *halt      // the Stop under way, nil when none
	closed   bool       // Stop began: nothing starts
	wg       sync.WaitGroup
}

// close keeps the watchdog and a Stop from starting (those running end
// with stopping); wait waits for them.
func (g *guard) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

func (g *guard) wait() { g.wg.Wait() }

// halt is one Stop under way. force is closed when it must not wait for
// the interrupt (any longer), answered when the agent answered it. The
// guard's mu guards forced.
type halt struct {
	force    chan struct{}
	forced   bool
	answered chan struct{}
}

func exited(p agent.Conn) bool {
	select {
	case <-p.Done():
		return true
	default:
		return false
	}
}
