package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/worker"
)

// Runtime is the live part of one sdk worker: the CLI process (its start,
// the user messages sent to it, cancel, permission answers, the history
// import) in front of the journal, which stores and publishes what comes
// of it. All its methods are safe for concurrent use. Its goroutines (see
// the package doc) end in Stop.
type Runtime struct {
	env      worker.Env
	log      *slog.Logger
	conv     string // the Claude conversation (session) id
	readOnly bool   // a stopped worker: history only
	journal  *journal
	seen     *recentIDs // uuids lately stored, see stored
	q        *queue     // the chat's queue and its delivery (queue.go, deliver.go)

	ctx    context.Context // bounds the CLI processes; cancelled by Stop
	cancel context.CancelFunc

	clock      clock         // the watchdog's and the escalating Stop's time
	stallAfter time.Duration // worker.Config.StallAfter; 0: no watchdog
	stopping   chan struct{} // closed when Stop begins
	lastOut    atomic.Int64  // clock time (Unix ns) of the CLI's last output
	stallMu    sync.Mutex    // orders the raise and the clear of a stall
	stalled    atomic.Bool   // a stall was raised and not cleared; see stall.go

	// sendMu serializes user messages, so the log and the CLI get them in
	// the same order, and the lazy start of the CLI.
	sendMu sync.Mutex

	mu        sync.Mutex // guards the fields below
	proc      *claude.Process
	resume    bool // the conversation exists: start with --resume
	stopped   bool
	abortInit context.CancelFunc   // cancels an Initialize in flight
	started   bool                 // the conversation is recorded as started
	caps      *worker.Capabilities // the last CLI's initialize answer
	following bool                 // another process writes the conversation (watch.go)
	halting   *halt                // the Stop under way (stop.go)
	watching  bool                 // the stall watchdog runs (stall.go)
	settings  worker.Settings      // the flags of the next CLI (settings.go)
	inForce   claude.InForce       // what the CLI reports it runs with (current.go)
	rules     []worker.Rule        // the session's rules, passed to every CLI
	retired   *claude.Process      // ended on purpose (SetRules): no exit frame
	suspended bool                 // Suspend: a shutdown keeps the pending requests (pending.go)
	grants    []grant              // allows given after a restart, for the repeated request (pending.go)

	// cancelMu orders Cancel against the write of a user message to the
	// CLI: a Cancel that comes first keeps the message from the CLI, one
	// that comes after interrupts the turn it began.
	cancelMu   sync.Mutex
	sending    bool // a stored user message is on its way to the CLI
	cancelSend bool // Cancel came while sending: do not send it

	// recMu serializes the process record's writes; recorded is the CLI
	// whose record is stored.
	recMu    sync.Mutex
	recorded *claude.Process

	// imported is closed once the session file's history is in the log
	// (or none is to be imported): user messages wait for it.
	imported chan struct{}

	wg       sync.WaitGroup // the history import
	readers  sync.WaitGroup // one per CLI process; Go only under mu while !stopped
	bg       sync.WaitGroup // the watchdog and a Stop under way; Go only under mu while !stopped
	stopOnce sync.Once
	stopErr  error
}

// The abilities the server and the manager find by type assertion.
var (
	_ worker.Runtime          = (*Runtime)(nil)
	_ worker.Inputter         = (*Runtime)(nil)
	_ worker.Canceller        = (*Runtime)(nil)
	_ worker.ForceCanceller   = (*Runtime)(nil)
	_ worker.MessageLister    = (*Runtime)(nil)
	_ worker.ActivityReporter = (*Runtime)(nil)
)

// New is the worker.Factory of the sdk kind. It reads the log's last seq,
// settles the conversation id (env.Session.ClaudeSessionID, or a new one
// recorded with env.SetClaudeSession) and marks the worker running and
// idle. It starts no process. A new worker that takes over an existing
// conversation imports its history from the CLI's session file first, in
// the background (see importHistory).
func New(ctx context.Context, env worker.Env) (worker.Runtime, error) {
	return newRuntime(env)
}

func newRuntime(env worker.Env) (*Runtime, error) {
	if env.Store == nil || env.Info.ID == "" {
		return nil, fmt.Errorf("new sdk worker: store and worker id required: %w", worker.ErrInvalid)
	}
	last, err := env.Store.LastSeq(env.Info.ID)
	if err != nil {
		return nil, fmt.Errorf("new sdk worker: %w", err)
	}
	r := &Runtime{
		env:      env,
		log:      env.Log,
		readOnly: env.Info.Status == worker.StatusStopped,
		imported: make(chan struct{}),
		seen:     newRecentIDs(recentIDsLen),
		clock:    realClock{},
		stopping: make(chan struct{}),

		stallAfter: env.Config.StallAfter,
	}
	if r.log == nil {
		r.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	r.journal = newJournal(env.Store, env.Info.ID, last, r.log, r.reportActivity)
	r.q = newQueue(r, env.Info.SessionID)
	var restored []*permission
	if !r.readOnly {
		r.journal.queued = r.q.frame()
		restored = r.loadPending()
		r.journal.restore(restored)
	}
	r.journal.meter = newMeter(env, r.log)
	r.catchUpUsage(last)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.settings = worker.Settings{Model: env.Info.Model, PermissionMode: env.Info.PermissionMode}
	r.inForce = inForceOf(env.Info)
	r.rules = worker.SessionRules(env.Session.PermissionRules)
	if id := env.Session.ClaudeSessionID; id != nil && *id != "" {
		// The session already carries a conversation (this worker's, or
		// one another agent worker drove): continue it.
		r.conv, r.resume = *id, true
		r.started = env.Session.ClaudeSessionStarted
	} else {
		r.conv = uuid.Must(uuid.NewV7()).String()
		if env.SetClaudeSession != nil {
			env.SetClaudeSession(r.conv)
		}
	}
	r.closeCutTurn(len(restored))
	// The journal's goroutines start when there is work and end when it
	// is done: an idle worker runs no goroutine and holds no queue.
	switch {
	case r.resume && !r.readOnly && !env.Restored && last == 0:
		r.wg.Go(r.importHistory)
	case r.resume && !r.readOnly && env.Restored:
		r.wg.Go(r.rewatch) // a restart while another process wrote it
	default:
		close(r.imported)
	}
	if !r.readOnly {
		r.reportRunning()
		r.reportActivity(r.journal.currentActivity())
	}
	return r, nil
}

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

// Messages returns up to limit stored messages after the one whose uuid is
// after ("" means from the start), oldest first, each an sdk-message frame
// without "type", and whether more follow. limit <= 0 means
// wire.PageDefault; it is capped at wire.PageMax. An unknown after is an
// error wrapping worker.ErrNotFound. Every uuid returned is a valid Attach
// cursor.
func (r *Runtime) Messages(after string, limit int) ([]json.RawMessage, bool, error) {
	return r.journal.messages(after, limit)
}

// MessagesBefore returns up to limit stored messages older than the one
// whose uuid is before ("" means the newest page) and newer than the one
// whose uuid is after ("" means no bound), oldest first, each as in
// Messages, and whether older ones remain in that range. An unknown uuid
// is an error wrapping worker.ErrNotFound.
func (r *Runtime) MessagesBefore(before, after string, limit int) ([]json.RawMessage, bool, error) {
	return r.journal.messagesBefore(before, after, limit)
}

// The reports to the manager. A bare Env (benchmarks) has no reporter.

func (r *Runtime) reportRunning() {
	if r.env.Report != nil {
		r.env.Report.Running()
	}
}

func (r *Runtime) reportFailed(err error) {
	if r.env.Report != nil {
		r.env.Report.Failed(err)
	}
}

// reportActivity runs on the journal's reporter (and once in New).
func (r *Runtime) reportActivity(a worker.Activity) {
	if r.env.Report != nil {
		r.env.Report.Activity(a)
	}
	if a == worker.ActivityIdle && !r.readOnly {
		r.q.poke() // the turn ended: the queue's first message is next
	}
}

// Stop denies pending permission requests, ends the CLI (closing its
// stdin, then signals after a grace), and waits for every goroutine. The
// message log stays readable through Messages and Attach. It leaves the
// worker's status to the manager, which knows why it stops the worker.
// Stop is idempotent; later calls wait for the first.
func (r *Runtime) Stop(ctx context.Context) error {
	r.stopOnce.Do(func() { r.stopErr = r.stop(ctx) })
	return r.stopErr
}

func (r *Runtime) stop(ctx context.Context) error {
	r.q.halt()
	r.mu.Lock()
	r.stopped = true
	close(r.stopping)
	p := r.proc
	if r.abortInit != nil {
		r.abortInit()
	}
	suspended := r.suspended
	r.mu.Unlock()

	if !suspended {
		r.denyAll("The worker was stopped")
	} else if p != nil {
		r.dropAsking(p)
	}
	var err error
	if p != nil {
		if cerr := p.Close(ctx); cerr != nil {
			err = fmt.Errorf("stop sdk worker: %w", cerr)
		}
	}
	// A SendUser in flight sees stopped and closes what it started.
	r.sendMu.Lock()
	r.sendMu.Unlock() // a barrier: no send is in flight past this point
	r.q.wait()
	r.readers.Wait()
	r.bg.Wait()
	// A producer still running (the import, a late control call) gets
	// errStopped from here on.
	r.journal.close()
	r.wg.Wait()
	r.cancel()
	return err
}
