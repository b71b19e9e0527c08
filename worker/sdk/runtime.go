// Package sdk is the sdk worker kind: Claude Code driven in stream-json
// mode (worker/claude), shown as a chat.
//
// Every complete CLI line is given a uuid and a sequence number, stored in
// the worker's message log and only then published to the tabs, so a
// cursor a tab holds always exists on disk; stream_event deltas are
// published at once and kept in memory for the running turn only. A tab
// that attaches gets the stored history after its cursor, then the turn so
// far, the pending permission requests and the activity, with nothing lost
// or doubled at the seam (see Attach).
//
// The CLI starts at the first user message, with --session-id for a new
// conversation and --resume afterwards (also after a crash of the CLI or a
// restart of the server), so a restored worker costs nothing until used.
package sdk

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/claude"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// Runtime is the live part of one sdk worker. All its methods are safe for
// concurrent use. Its goroutines (the publisher, the activity reporter, the
// history import of a new worker and one reader per CLI process) end in
// Stop.
type Runtime struct {
	env      worker.Env
	store    *persist.Store
	wid      string
	log      *slog.Logger
	conv     string // the Claude conversation (session) id
	readOnly bool   // a stopped worker: history only

	ctx    context.Context // bounds the CLI processes; cancelled by Stop
	cancel context.CancelFunc

	// sendMu serializes user messages, so the log and the CLI get them in
	// the same order, and the lazy start of the CLI.
	sendMu sync.Mutex

	mu        sync.Mutex // guards the fields below
	proc      *claude.Process
	resume    bool // the conversation exists: start with --resume
	stopped   bool
	abortInit context.CancelFunc // cancels an Initialize in flight
	started   bool               // the conversation is recorded as started

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

	seqMu    sync.Mutex // guards seq, epoch, queue (and sends on it) and qClosed (see produce)
	seq      uint64
	epoch    uint64     // numbering epoch, see rollback.go
	queue    chan batch // nil while no publisher runs
	qClosed  bool
	inflight *budget    // frame bytes queued for the publisher
	seen     *recentIDs // uuids lately stored, see stored

	rbMu     sync.Mutex // guards rb
	rb       *rollback  // set by the publisher, applied by produce
	pubEpoch uint64     // the publisher's: batches of older epochs had to fail
	rbErr    error      // the publisher's: why the last rollback happened

	// pubMu guards the hub's publishing and what Attach snapshots with its
	// subscription: every Publish happens under it.
	pubMu    sync.Mutex
	hub      *hub.Hub
	cursor   uint64   // seq of the last published stored message
	turn     [][]byte // stream_event frames of the message being streamed
	turnSize int      // their bytes
	turnCut  bool     // over maxTurnBytes: none kept until the message ends
	inTurn   bool
	pending  []*permission
	activity worker.Activity

	// imported is closed once the session file's history is in the log
	// (or none is to be imported): user messages wait for it.
	imported chan struct{}

	// repMu guards the reporter: dirty when the activity changed since it
	// last told the manager, reporting while it runs (see activityChanged).
	repMu     sync.Mutex
	dirty     bool
	reporting bool

	wg       sync.WaitGroup // publisher, activity reporter, history import
	readers  sync.WaitGroup // one per CLI process; Go only under mu while !stopped
	stopOnce sync.Once
	stopErr  error
}

var (
	_ worker.Runtime    = (*Runtime)(nil)
	_ worker.Attachable = (*Runtime)(nil)
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
		store:    env.Store,
		wid:      env.Info.ID,
		log:      env.Log,
		readOnly: env.Info.Status == worker.StatusStopped,
		seq:      last,
		inflight: newBudget(maxInflight),
		hub:      hub.New(last),
		cursor:   last,
		activity: worker.ActivityIdle,
		imported: make(chan struct{}),
		seen:     newRecentIDs(recentIDsLen),
	}
	if r.log == nil {
		r.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
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
	// The publisher and the reporter start when there is work (produce,
	// activityChanged) and end when it is done: an idle worker runs no
	// goroutine and holds no queue.
	if r.resume && !r.readOnly && !env.Restored && last == 0 {
		r.wg.Go(r.importHistory)
	} else {
		close(r.imported)
	}
	if !r.readOnly {
		r.update(func(i *worker.Info) {
			idle := worker.ActivityIdle
			i.Status, i.Activity, i.Error = worker.StatusRunning, &idle, nil
		})
	}
	return r, nil
}

// ConversationID returns the Claude session id this worker drives.
func (r *Runtime) ConversationID() string { return r.conv }

// Activity returns the worker's activity as the tabs last saw it.
func (r *Runtime) Activity() worker.Activity {
	r.pubMu.Lock()
	defer r.pubMu.Unlock()
	return r.activity
}

func (r *Runtime) update(fn func(*worker.Info)) {
	if r.env.Update != nil {
		r.env.Update(fn)
	}
}

// activityChanged tells the reporter, starting it if it is not running;
// a change it has not reported yet covers this one too. Called by the
// publisher only (whose goroutine keeps r.wg above zero).
func (r *Runtime) activityChanged() {
	r.repMu.Lock()
	defer r.repMu.Unlock()
	r.dirty = true
	if !r.reporting {
		r.reporting = true
		r.wg.Go(r.reportActivity)
	}
}

// reportActivity passes activity changes to the manager until none is
// left. env.Update writes to the database, so it runs here and not on the
// publisher: a burst of changes costs one update with the latest state.
func (r *Runtime) reportActivity() {
	for {
		r.repMu.Lock()
		if !r.dirty {
			r.reporting = false
			r.repMu.Unlock()
			return
		}
		r.dirty = false
		r.repMu.Unlock()
		a := r.Activity()
		r.update(func(i *worker.Info) { i.Activity = &a })
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
	r.mu.Lock()
	r.stopped = true
	p := r.proc
	if r.abortInit != nil {
		r.abortInit()
	}
	r.mu.Unlock()

	r.denyAll("The worker was stopped")
	var err error
	if p != nil {
		if cerr := p.Close(ctx); cerr != nil {
			err = fmt.Errorf("stop sdk worker: %w", cerr)
		}
	}
	// A SendUser in flight sees stopped and closes what it started.
	r.sendMu.Lock()
	r.sendMu.Unlock() // a barrier: no send is in flight past this point
	r.readers.Wait()

	r.seqMu.Lock()
	r.qClosed = true
	if r.queue != nil {
		close(r.queue) // the publisher drains it and ends
	}
	r.seqMu.Unlock()
	r.wg.Wait()
	r.cancel()

	// Kick the live tabs; later attachments get the history from a hub
	// that never publishes.
	r.pubMu.Lock()
	old := r.hub
	r.hub = hub.New(r.cursor)
	r.pubMu.Unlock()
	old.Close()
	return err
}
