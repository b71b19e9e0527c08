package chat

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/worker"
)

// Runtime is the live part of one chat worker: the worker's abilities
// (attach, messages, send, queue, cancel, answer, settings, rules,
// capabilities, stop), each a few calls on the parts it is made of. The
// parts, each with its own lock where it needs one:
//
//   - journal: the log on its way to the tabs (journal*.go), and pages,
//     its REST pages forwards and backwards (pages.go);
//   - slot: the live agent, its start, reader and exit (slot.go, reader.go);
//   - sender and gate: user messages to the agent, and their order against
//     Cancel (send.go, gate.go);
//   - requests: pending requests, kept across a restart (pending.go);
//   - queue: the durable queue and its delivery (queue*.go, deliver.go);
//   - prefs: settings, rules, capabilities, what is in force (prefs.go);
//   - guard: the stall watchdog and the escalating Stop (guard.go,
//     stall.go, stop.go);
//   - history: the import of the conversation so far and the following of
//     a record another process writes (import.go, watch.go, turncut.go),
//     held only by the import's goroutine.
//
// All its methods are safe for concurrent use. Its goroutines (see the
// package doc) end in Stop.
type Runtime struct {
	env      worker.Env
	log      *slog.Logger
	conv     string // the conversation id (the session's claudeSessionId)
	readOnly bool   // a stopped worker: history only

	journal *journal
	pages   // the REST pages of the history (pages.go)
	slot    *slot
	snd     *sender
	gate    *gate
	reqs    *requests
	q       *queue
	prefs   *prefs
	guard   *guard
	follow  *follower
	seen    *recentIDs // uuids lately stored (the reader's and the import's)

	ctx      context.Context // bounds the agent's starts and calls; cancelled by Stop
	cancel   context.CancelFunc
	stopping chan struct{} // closed when Stop begins
	// imported is closed once the history is in the log (or none is to be
	// imported): user messages wait for it.
	imported chan struct{}

	wg       sync.WaitGroup // the history import and the usage catch-up
	stopOnce sync.Once
	stopErr  error
}

// The abilities the server and the manager find by type assertion.
var (
	_ worker.Runtime            = (*Runtime)(nil)
	_ worker.Inputter           = (*Runtime)(nil)
	_ worker.Canceller          = (*Runtime)(nil)
	_ worker.ForceCanceller     = (*Runtime)(nil)
	_ worker.MessageLister      = (*Runtime)(nil)
	_ worker.OlderMessageLister = (*Runtime)(nil)
	_ worker.ActivityReporter   = (*Runtime)(nil)
	_ worker.Suspender          = (*Runtime)(nil)
	_ worker.Watcher            = (*Runtime)(nil)
)

// Activity returns the worker's activity as the tabs last saw it.
func (r *Runtime) Activity() worker.Activity { return r.journal.currentActivity() }

// Attach opens a stream after the message whose uuid is after ("" means
// from the start): the stored history up to the live cursor, history-end,
// the running turn, the pending permission requests and the activity,
// then the live frames, with nothing lost or doubled at the seam. An
// unknown after replays everything after a reset frame.
func (r *Runtime) Attach(ctx context.Context, after string) (*hub.Stream, error) {
	return r.journal.attach(ctx, after)
}

// Watching reports whether another process writes the conversation now
// (watch.go).
func (r *Runtime) Watching() bool { return r.follow.refusal() != nil }

// reportActivity runs on the journal's reporter (and once at the start).
func (r *Runtime) reportActivity(a worker.Activity) {
	if r.env.Report != nil {
		r.env.Report.Activity(a)
	}
	if a == worker.ActivityIdle && !r.readOnly {
		r.q.poke() // the turn ended: the queue's first message is next
	}
}

// Suspend is Stop for a server shutdown: the pending requests are neither
// denied nor forgotten, so the next start shows them again (pending.go).
func (r *Runtime) Suspend(ctx context.Context) error {
	r.reqs.suspend()
	return r.Stop(ctx)
}

// Stop denies pending permission requests, ends the agent (gently, then
// with signals after a grace), and waits for every goroutine. The message
// log stays readable through Messages and Attach. It leaves the worker's
// status to the manager, which knows why it stops the worker. Stop is
// idempotent; later calls wait for the first.
func (r *Runtime) Stop(ctx context.Context) error {
	r.stopOnce.Do(func() { r.stopErr = r.stop(ctx) })
	return r.stopErr
}

func (r *Runtime) stop(ctx context.Context) error {
	r.q.halt()
	close(r.stopping)
	p := r.slot.close()
	r.guard.close()
	if !r.reqs.isSuspended() {
		r.reqs.denyAll("The worker was stopped")
	} else if p != nil {
		r.reqs.dropAsking(p)
	}
	var err error
	if p != nil {
		if cerr := p.Close(ctx); cerr != nil {
			err = fmt.Errorf("stop chat worker: %w", cerr)
		}
	}
	// A send in flight sees the stop and closes what it started.
	r.snd.lock()
	r.snd.unlock() // a barrier: no send is in flight past this point
	r.q.wait()
	r.slot.wait()
	r.guard.wait()
	// A producer still running (the import, a late control call) gets
	// errStopped from here on.
	r.journal.close()
	r.wg.Wait()
	r.cancel()
	return err
}
