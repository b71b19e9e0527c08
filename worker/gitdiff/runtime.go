package gitdiff

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// Runtime is a git-diff worker: it sends the Diff of the session's work tree
// to every connected client and recomputes it on file-system events, which
// it watches only while at least one client is connected.
//
// All methods are safe for concurrent use.
type Runtime struct {
	env worker.Env
	dir string
	hub *hub.Hub

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{} // a pending recompute; capacity 1 coalesces bursts

	mu      sync.Mutex
	baseSHA string
	base    baseState
	last    []byte // the latest diff frame
	seq     uint64
	clients int
	watcher *Watcher
}

// What a git-diff runtime is, and the abilities the server finds on it by
// type assertion, checked at build time.
var (
	_ worker.Runtime   = (*Runtime)(nil)
	_ worker.Factory   = New
	_ worker.Validator = Validate
	_ worker.Differ    = (*Runtime)(nil)
)

// Validate is the worker.Validator of git-diff workers: it refuses a
// session directory outside a git work tree and a base that does not
// resolve to a commit, before the worker is stored. Other failures (git
// itself failing) are left to New, which shows the worker in status error.
func Validate(ctx context.Context, env worker.Env) error {
	_, err := resolve(ctx, env.Session.Cwd, env.Info.Base)
	if errors.Is(err, worker.ErrInvalid) {
		return err
	}
	return nil
}

// New is the worker.Factory of git-diff workers.
func New(ctx context.Context, env worker.Env) (worker.Runtime, error) {
	dir := env.Session.Cwd
	sha, err := resolve(ctx, dir, env.Info.Base)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r := &Runtime{env: env, dir: dir, hub: hub.New(0), ctx: rctx, cancel: cancel, kick: make(chan struct{}, 1),
		baseSHA: sha, base: baseState{dflt: env.Info.Base == ""}}
	r.wg.Go(r.loop)
	env.Report.Running()
	return r, nil
}

// resolve turns the worker's base (empty: the default) into a sha.
func resolve(ctx context.Context, dir, base string) (string, error) {
	if base == "" {
		sha, err := DefaultBase(ctx, dir)
		if errors.Is(err, ErrNotRepo) {
			return "", fmt.Errorf("%s is not inside a git work tree: %w", dir, worker.ErrInvalid)
		}
		return sha, err
	}
	sha, err := ResolveBase(ctx, dir, base)
	if errors.Is(err, ErrInvalidBase) || errors.Is(err, ErrNotRepo) {
		return "", &worker.CodeError{Code: wire.CodeInvalidBase, Err: fmt.Errorf("base %q does not resolve to a commit in %s: %w", base, dir, worker.ErrInvalid)}
	}
	return sha, err
}

// loop recomputes the diff whenever kicked and publishes it.
func (r *Runtime) loop() {
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-r.kick:
		}
		r.publish()
	}
}

func (r *Runtime) refresh() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

func (r *Runtime) publish() {
	base, err := r.currentBase(r.ctx)
	var d *Diff
	if err == nil {
		d, err = Compute(r.ctx, r.dir, base, nil)
	}
	var frame []byte
	if err != nil {
		if r.ctx.Err() != nil {
			return
		}
		frame = wire.Error(wire.CodeDiffFailed, err.Error())
	} else {
		frame, err = wire.JSON(diffFrame{wire.TypeDiff, d})
		if err != nil {
			return
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		r.last = frame
	}
	r.seq++
	r.hub.Publish(r.seq, hub.Frame{Data: frame})
}

// Attach sends the latest diff, then every new one. The first client starts
// the file watcher; the last one to leave stops it.
func (r *Runtime) Attach(ctx context.Context, _ string) (*hub.Stream, error) {
	sub, _ := r.hub.Subscribe(16)
	r.mu.Lock()
	last := r.last
	r.clients++
	if r.clients == 1 {
		r.startWatchLocked()
	}
	r.mu.Unlock()
	if last == nil {
		r.refresh()
	}
	return &hub.Stream{
		Replay: func(yield func(hub.Frame) error) error {
			if last == nil {
				return nil
			}
			return yield(hub.Frame{Data: last})
		},
		Sub:     sub,
		OnClose: r.detach,
	}, nil
}

func (r *Runtime) startWatchLocked() {
	w, err := watch(r.ctx, r.dir, 0, r.changed, watchHooks{})
	if err != nil {
		r.env.Log.Error("watch work tree", "err", err)
		return
	}
	r.watcher = w
	r.base.gen++ // HEAD may have moved while nobody watched
	r.refresh()  // and the files changed
}

// changed is the watcher's news: the work tree changed, and when gitMoved
// HEAD, the index or a branch may have moved too.
func (r *Runtime) changed(gitMoved bool) {
	if gitMoved {
		r.mu.Lock()
		r.base.gen++
		r.mu.Unlock()
	}
	r.refresh()
}

func (r *Runtime) detach() {
	r.mu.Lock()
	r.clients--
	var w *Watcher
	if r.clients == 0 {
		w, r.watcher = r.watcher, nil
	}
	r.mu.Unlock()
	if w != nil {
		_ = w.Close()
	}
}

// Watching reports whether the file watcher runs (for tests).
func (r *Runtime) Watching() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.watcher != nil
}

// diffFrame is API.md's {"type":"diff", …Diff}.
type diffFrame struct {
	Type string `json:"type"`
	*Diff
}

type clientFrame struct {
	Type string `json:"type"`
	Base string `json:"base"`
}

// HandleClient handles refresh and set-base.
func (r *Runtime) HandleClient(ctx context.Context, data []byte) (*hub.Stream, error) {
	var f clientFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("frame is not a JSON object: %w", worker.ErrInvalid)
	}
	switch f.Type {
	case "refresh":
		r.mu.Lock()
		r.base.gen++ // a person asking for a refresh expects a fresh base too
		r.mu.Unlock()
		r.refresh()
		return nil, nil
	case "set-base":
		return nil, r.SetBase(ctx, f.Base)
	}
	return nil, fmt.Errorf("unknown frame type %q: git-diff workers accept refresh and set-base: %w", f.Type, worker.ErrInvalid)
}

// SetBase changes the base (empty: the default base) and keeps it. A base
// that does not resolve leaves the old one in place.
func (r *Runtime) SetBase(ctx context.Context, base string) error {
	sha, err := resolve(ctx, r.dir, base)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.baseSHA = sha
	r.base.set(base == "")
	r.mu.Unlock()
	r.env.Report.Base(base)
	r.refresh()
	return nil
}

// Diff computes the diff now (REST). With a path, it returns that file in
// full, for a file the diff truncated.
func (r *Runtime) Diff(ctx context.Context, path string) (any, error) {
	base, err := r.currentBase(ctx)
	if err != nil {
		return nil, err
	}
	if path != "" {
		f, err := ComputeFile(ctx, r.dir, base, path)
		if errors.Is(err, ErrInvalidPath) {
			return nil, &worker.FieldError{Field: "path", Msg: err.Error()}
		}
		if errors.Is(err, ErrUnchanged) {
			return nil, fmt.Errorf("path %q has no change: %w", path, worker.ErrNotFound)
		}
		return f, err
	}
	return Compute(ctx, r.dir, base, nil)
}

// Stop ends the watcher and the loop and waits for them.
func (r *Runtime) Stop(context.Context) error {
	r.cancel()
	r.wg.Wait()
	r.mu.Lock()
	w := r.watcher
	r.watcher = nil
	r.mu.Unlock()
	if w != nil {
		_ = w.Close()
	}
	r.hub.Close()
	return nil
}
