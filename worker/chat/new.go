package chat

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/worker"
)

// Factory is the worker.Factory of the chat kind (API kind sdk) whose
// agent d drives. The factory reads the log's last seq, settles the
// conversation id (env.Session.ClaudeSessionID, or a new one recorded
// with env.SetClaudeSession) and marks the worker running and idle. It
// starts no process. A new worker that takes over an existing
// conversation imports its history from the agent's own record first, in
// the background, when the driver keeps one (agent.History; import.go).
func Factory(d agent.Driver) worker.Factory {
	return func(ctx context.Context, env worker.Env) (worker.Runtime, error) {
		return newRuntime(env, d)
	}
}

// discardLog is the log of a worker whose Env has none (benchmarks, the
// idle-cost test): one for all of them.
var discardLog = slog.New(slog.DiscardHandler)

func newRuntime(env worker.Env, d agent.Driver) (*Runtime, error) {
	if env.Store == nil || env.Info.ID == "" {
		return nil, fmt.Errorf("new chat worker: store and worker id required: %w", worker.ErrInvalid)
	}
	last, err := env.Store.LastSeq(env.Info.ID)
	if err != nil {
		return nil, fmt.Errorf("new chat worker: %w", err)
	}
	r := &Runtime{
		env: env, log: env.Log, readOnly: env.Info.Status == worker.StatusStopped,
		seen: newRecentIDs(recentIDsLen), follow: &follower{}, gate: &gate{},
		stopping: make(chan struct{}), imported: make(chan struct{}),
	}
	if r.log == nil {
		r.log = discardLog
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	resume, started := r.conversation()
	r.journal = newJournal(env.Store, env.Info.ID, last, r.log, r.reportActivity)
	r.pages = pages{r.journal}
	hist := r.parts(d, resume, started)
	var restored []*permission
	if !r.readOnly {
		r.journal.queued = r.q.frame()
		restored = r.reqs.load()
		r.journal.restore(restored)
	}
	r.journal.meter = newMeter(env, r.log)
	r.catchUpUsage(last)
	hist.closeCutTurn(len(restored))
	// The journal's goroutines start when there is work and end when it
	// is done: an idle worker runs no goroutine and holds no queue.
	switch {
	case resume && !r.readOnly && !env.Restored && last == 0:
		r.wg.Go(hist.importHistory)
	case resume && !r.readOnly && env.Restored:
		r.wg.Go(hist.rewatch) // a restart while another process wrote it
	default:
		close(r.imported)
	}
	if !r.readOnly {
		r.slot.reportRunning()
		r.reportActivity(r.journal.currentActivity())
	}
	return r, nil
}

// conversation settles the conversation id: the session's (this worker's,
// or one another agent worker drove: continue it), or a new one, recorded
// on the session. It reports whether the conversation exists and whether
// agentdesk's record says an agent got a message of it.
func (r *Runtime) conversation() (resume, started bool) {
	if id := r.env.Session.ClaudeSessionID; id != nil && *id != "" {
		r.conv = *id
		return true, r.env.Session.ClaudeSessionStarted
	}
	r.conv = uuid.Must(uuid.NewV7()).String()
	if r.env.SetClaudeSession != nil {
		r.env.SetClaudeSession(r.conv)
	}
	return false, false
}

// parts builds the runtime's parts around its journal, and returns its
// history, which lives only as long as the import's goroutine needs it.
func (r *Runtime) parts(d agent.Driver, resume, started bool) *history {
	env, j, log := &r.env, r.journal, r.log // the parts share the Runtime's env
	refs := refMaker{sid: env.Session.ID, wid: env.Info.ID}
	r.prefs = newPrefs(env, log)
	r.reqs = &requests{store: env.Store, wid: env.Info.ID, j: j, driver: d, stopping: r.stopping, log: log}
	r.guard = &guard{j: j, clock: realClock{}, after: env.Config.StallAfter, marker: env.Marker,
		tracked: func() (childproc.Ident, int) { return r.slot.tracked() }, ctx: r.ctx, stopping: r.stopping, log: log}
	r.slot = &slot{driver: d, env: env, conv: r.conv, ctx: r.ctx, log: log, j: j, reqs: r.reqs, prefs: r.prefs,
		in:  intake{j: j, reqs: r.reqs, prefs: r.prefs, dog: r.guard, seen: r.seen, log: log},
		rec: records{env: env, log: log}, gate: r.gate, follow: r.follow, resume: resume, started: started}
	r.snd = &sender{slot: r.slot, gate: r.gate, j: j, dog: r.guard, refs: refs, stopping: r.stopping}
	r.q = (&queue{store: env.Store, sid: env.Info.SessionID, refs: refs, j: j, snd: r.snd, readOnly: r.readOnly,
		stopping: r.stopping, imported: r.imported, log: log}).init()
	return &history{driver: d, env: env, conv: r.conv, readOnly: r.readOnly, started: started, j: j, seen: r.seen,
		refs: refs, follow: r.follow, stopping: r.stopping, imported: r.imported, log: log}
}

// catchUpUsage starts the usage catch-up (meter.catchUp) of the messages
// stored after the worker's usage mark, when there are any. Its goroutine
// belongs to r.wg and ends by itself or at Stop.
func (r *Runtime) catchUpUsage(last uint64) {
	mark, err := r.env.Store.UsageMark(r.env.Info.ID)
	if err != nil {
		r.log.Warn("usage: read mark", "err", err)
		return
	}
	if mark >= last {
		return
	}
	r.wg.Go(func() { r.journal.meter.catchUp(mark, last, func() bool { return isClosed(r.stopping) }) })
}
