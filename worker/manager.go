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
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/persist"
)

// Manager owns the lifecycles of every session and worker: it creates
// them, builds their runtimes through the registered factories, stops,
// restarts, switches and deletes them, and ends what their processes left.
// Their state, the commits that change it and the lifecycle events are its
// table (table.go). A worker's status changes only through its table of
// transitions (lifecycle.go); kinds tell the manager what happened
// (Reporter) and the manager decides what is recorded. The use cases
// around the lifecycles are services of their own, built on the manager
// (AgentSettings, Repos, Usage, and worker/review, worker/attention, …).
//
// All methods are safe for concurrent use. No lock is held while calling
// into a runtime (Stop, a factory, a validator): runtimes report from
// their own goroutines, which Stop waits for.
type Manager struct {
	// table is embedded, not named, so that switch.go, leftovers.go and
	// worktree*.go, which other work of this round changes, compile as
	// they are; it becomes a named field once that work is merged.
	table

	cfg        Config
	factories  map[Kind]Factory
	validators map[Kind]Validator
	killGroup  func(pgid int)
	launcher   launch.Launcher
	trees      *trees // the descendants of the workers' processes, recorded
	adoptable  func(cwd, id string) error
	boxes      boxes // the sandboxed sessions' boxes
	// sessionDirs hold a directory per session, removed with it (Options).
	sessionDirs []string
	// run marks the children of this run (AGENTDESK_WORKER=<worker>/<run>),
	// so that they can be found wherever they moved.
	run string
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
	// Launcher starts every worker's processes; nil means the local one.
	Launcher launch.Launcher
	// Adoptable checks, before anything is stored, that the conversation a
	// new session adopts (CreateSessionRequest.ClaudeSessionID) exists:
	// an error refuses the session. nil accepts any.
	Adoptable func(cwd, id string) error
	// Sandbox configures sandboxed sessions; nil refuses them.
	Sandbox *SandboxOptions
	// SessionDirs are directories holding one directory per session, named
	// by its id, that parts outside the manager fill (a Codex chat's
	// CODEX_HOME): a session's is removed when the session is deleted.
	SessionDirs []string
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
	launcher := o.Launcher
	if launcher == nil {
		launcher = launch.Local{}
	}
	return &Manager{
		table: table{
			store:    o.Store,
			log:      log,
			now:      func() time.Time { return time.Now().UTC() },
			sessions: make(map[string]*sessionState),
			events:   hub.New(0),
		},
		killGroup:   kill,
		launcher:    launcher,
		trees:       newTrees(o.Store, log),
		cfg:         o.Config,
		factories:   o.Factories,
		validators:  o.Validators,
		adoptable:   o.Adoptable,
		sessionDirs: o.SessionDirs,
		boxes:       boxes{o: o.Sandbox, cfg: o.Config, local: launcher, log: log},
		run:         childproc.NewRun(),
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
	recs, err := m.store.Records().Sessions()
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
	if st.s.Sandbox == "" {
		st.s.Sandbox = SandboxOff // stored before sessions had the option
	}
	st.box = m.boxes.forSession(st.s)
	if st.box != nil && st.box.err != nil {
		m.log.Error("sandboxed session: its workers cannot start", "session", st.s.ID, "err", st.box.err)
	}
	var rec struct {
		Started *bool `json:"claudeSessionStarted"`
	}
	if json.Unmarshal(r.Value, &rec) == nil && rec.Started == nil && st.s.ClaudeSessionID != nil {
		// Stored before agentdesk kept this record: take the conversation
		// as started, as agentdesk then did for the chat.
		st.s.ClaudeSessionStarted = true
	}
	wrecs, err := m.store.Records().Workers(r.ID)
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
	var wids []string
	for _, st := range m.sessions {
		for _, ws := range st.workers {
			if ws.rt != nil {
				rts = append(rts, ws.rt)
				wids = append(wids, ws.info.ID)
			}
		}
	}
	m.mu.Unlock()
	fam := m.trees.family(wids...) // before anything is signalled
	defer fam.Close()
	errs := stopAll(ctx, rts, true)
	m.endMarked(ctx, childproc.Runs(m.run), fam)
	m.mu.RLock()
	for _, st := range m.sessions {
		st.box.close()
	}
	m.mu.RUnlock()
	m.trees.close()
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
