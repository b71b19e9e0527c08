package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
)

// Manager owns every session and worker: it persists them, builds their
// runtimes through the registered factories, stops them, and broadcasts
// lifecycle events. A worker's status changes only through its table
// (lifecycle.go); kinds tell the manager what happened (Reporter) and the
// manager decides what is recorded.
//
// All methods are safe for concurrent use. Two locks, taken in this order:
// commitMu serialises every change of a session or worker, from computing
// it through its commit to its broadcast, so that events go out in commit
// order; mu guards the in-memory state and is held only for in-memory
// steps, never across a commit, so a lookup or an attach never waits for
// the disk. Neither is held while calling into a runtime (Stop, a factory,
// a validator): runtimes report from their own goroutines, which Stop
// waits for.
type Manager struct {
	store      *persist.Store
	cfg        Config
	log        *slog.Logger
	factories  map[Kind]Factory
	validators map[Kind]Validator
	killGroup  func(pgid int)
	now        func() time.Time
	// run marks the children of this run (AGENTDESK_WORKER=<worker>/<run>),
	// so that they can be found wherever they moved.
	run string

	commitMu sync.Mutex

	mu       sync.RWMutex
	sessions map[string]*sessionState
	events   *hub.Hub
	eventSeq uint64
	closed   bool
}

// Options configures a Manager. Factories maps each kind that this build
// supports to its factory; a kind without one cannot be created.
type Options struct {
	Store     *persist.Store
	Config    Config
	Log       *slog.Logger
	Factories map[Kind]Factory
	// Validators check a new worker's options before anything of it is
	// stored or broadcast, for the kinds that have one (Validator).
	Validators map[Kind]Validator
	// KillGroup ends what is left of a recorded process group after a crash,
	// once the group's leader is verified to be the process recorded; nil
	// sends SIGKILL to the group. PTY children need more than that (a
	// shell's background jobs live in groups of their own).
	KillGroup func(pgid int)
}

// NewManager returns a manager with no sessions; call Load to restore the
// stored ones.
func NewManager(o Options) *Manager {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	kill := o.KillGroup
	if kill == nil {
		kill = func(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
	}
	return &Manager{
		killGroup:  kill,
		store:      o.Store,
		cfg:        o.Config,
		log:        log,
		factories:  o.Factories,
		validators: o.Validators,
		now:        func() time.Time { return time.Now().UTC() },
		run:        childproc.NewRun(),
		sessions:   make(map[string]*sessionState),
		events:     hub.New(0),
	}
}

// Config returns the server-wide settings the workers run with.
func (m *Manager) Config() Config { return m.cfg }

// Supports reports whether workers of kind k can be created.
func (m *Manager) Supports(k Kind) bool { _, ok := m.factories[k]; return ok }

// Load ends the processes a previous run left behind, records this run,
// then restores every stored session and worker and builds their runtimes.
func (m *Manager) Load(ctx context.Context) error {
	m.killLeftovers()
	if err := m.store.PutRun(m.run); err != nil {
		m.log.Error("record run: a crash would leave its children running", "err", err)
	}
	recs, err := m.store.Sessions()
	if err != nil {
		return fmt.Errorf("load sessions: %w", err)
	}
	for _, r := range recs {
		if err := m.loadSession(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

func (m *Manager) loadSession(ctx context.Context, r persist.Record) error {
	st := &sessionState{}
	if err := json.Unmarshal(r.Value, &st.s); err != nil {
		m.log.Error("skip unreadable session", "id", r.ID, "err", err)
		return nil
	}
	st.s.Workers = nil
	var rec struct {
		Started *bool `json:"claudeSessionStarted"`
	}
	if json.Unmarshal(r.Value, &rec) == nil && rec.Started == nil && st.s.ClaudeSessionID != nil {
		// Stored before agentdesk kept this record: take the conversation
		// as started, as agentdesk then did for the chat.
		st.s.ClaudeSessionStarted = true
	}
	wrecs, err := m.store.Workers(r.ID)
	if err != nil {
		return fmt.Errorf("load workers of %s: %w", r.ID, err)
	}
	for _, wr := range wrecs {
		ws := newWorkerState(Info{})
		if err := json.Unmarshal(wr.Value, &ws.info); err != nil {
			m.log.Error("skip unreadable worker", "id", wr.ID, "err", err)
			continue
		}
		st.workers = append(st.workers, ws)
	}
	m.mu.Lock()
	m.sessions[st.s.ID] = st
	m.mu.Unlock()
	for _, ws := range st.workers {
		if err := m.buildRuntime(ctx, st.s, ws, true); err != nil {
			m.restoreFailed(st.s, ws.info.ID, err)
		}
	}
	return nil
}

// Close stops every runtime and waits for them. From then on, no report
// changes a worker: the stop is the manager's, not the workers' news.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	var rts []Runtime
	for _, st := range m.sessions {
		for _, ws := range st.workers {
			if ws.rt != nil {
				rts = append(rts, ws.rt)
			}
		}
	}
	m.mu.Unlock()
	errs := stopAll(ctx, rts, true)
	m.endMarked(ctx, childproc.Runs(m.run))
	if err := m.store.DeleteRun(m.run); err != nil {
		m.log.Error("forget run", "err", err)
	}
	m.events.Close()
	return errs
}

// stopAll stops rts at once and waits for them; shutdown suspends those
// that can (Suspender) instead.
func stopAll(ctx context.Context, rts []Runtime, shutdown bool) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, rt := range rts {
		wg.Go(func() {
			stop := rt.Stop
			if s, ok := rt.(Suspender); ok && shutdown {
				stop = s.Suspend // a shutdown, not a delete: keep what waits
			}
			if err := stop(ctx); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
