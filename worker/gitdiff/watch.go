package gitdiff

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// DefaultDebounce is the quiet time Watch waits for when given 0.
const DefaultDebounce = 150 * time.Millisecond

// maxPending bounds the paths one batch checks against the ignore rules;
// past it the batch fires without checking.
const maxPending = 256

// Watcher calls onChange, debounced, after changes that can alter the diff
// of a work tree: any file git does not ignore, and in the git directory
// HEAD, index, packed-refs, refs/heads and refs/remotes (so commits,
// checkouts, resets, staging and fetches count). Objects, logs, lock
// files and the other git internals do not.
//
// onChange runs on the watcher's own goroutine, one call at a time; events
// that arrive meanwhile are queued and coalesced. Close may be called from
// any goroutine and more than once, but not from onChange.
type Watcher struct {
	top, gitDir, commonDir string
	debounce               time.Duration
	onChange               func(gitMoved bool)
	hooks                  watchHooks

	fw       *fsnotify.Watcher
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	closeErr error // set by run before it returns
}

// watchHooks let tests observe the watcher's decisions.
type watchHooks struct {
	flushed func(fired bool, paths map[string]struct{}) // after every debounced batch
}

// Watch starts watching the work tree that contains dir, recursively,
// adding directories as they appear and skipping the ones git ignores.
// onChange is called once changes have been quiet for debounce (0 means
// DefaultDebounce), or after 4×debounce of continuous changes. The
// watcher stops when ctx is done or Close is called; call Close in any
// case to wait for it.
func Watch(ctx context.Context, dir string, debounce time.Duration, onChange func()) (*Watcher, error) {
	return watch(ctx, dir, debounce, func(bool) { onChange() }, watchHooks{})
}

// watch is Watch whose onChange also learns whether the batch held a
// change of HEAD, the index or a branch (gitMoved): the default base
// may have moved.
func watch(ctx context.Context, dir string, debounce time.Duration, onChange func(gitMoved bool), hooks watchHooks) (*Watcher, error) {
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	top, err := gitrepo.Toplevel(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	gitDir, commonDir, err := gitrepo.GitDirs(ctx, top)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{top: top, gitDir: gitDir, commonDir: commonDir, debounce: debounce,
		onChange: onChange, hooks: hooks, fw: fw}
	if err := w.addInitial(ctx); err != nil {
		_ = fw.Close()
		return nil, fmt.Errorf("watch: %w", err)
	}
	ctx, w.cancel = context.WithCancel(ctx)
	w.wg.Go(func() { w.run(ctx) })
	return w, nil
}

// Close stops the watcher and waits for its goroutine.
func (w *Watcher) Close() error {
	w.cancel()
	w.wg.Wait()
	return w.closeErr
}

// batch is what the changes since the last onChange call amount to.
type batch struct {
	first time.Time           // of the first change; zero when empty
	force bool                // fire without consulting ignore rules
	git   bool                // HEAD, the index or a branch changed
	paths map[string]struct{} // work-tree paths, relative, to check
}

func (w *Watcher) run(ctx context.Context) {
	defer func() { w.closeErr = w.fw.Close() }()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var b batch
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if w.handle(ctx, ev, &b) {
				w.arm(timer, &b)
			}
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				b.force, b.git = true, true // events were lost: assume the worst
				w.arm(timer, &b)
			}
		case <-timer.C:
			w.flush(ctx, &b)
		}
	}
}

// arm (re)starts the debounce timer: debounce after the latest change, but
// no later than 4×debounce after the first, so a steady stream of writes
// still refreshes.
func (w *Watcher) arm(timer *time.Timer, b *batch) {
	now := time.Now()
	if b.first.IsZero() {
		b.first = now
	}
	wait := min(w.debounce, b.first.Add(4*w.debounce).Sub(now))
	timer.Reset(max(wait, 0))
}

func (w *Watcher) flush(ctx context.Context, b *batch) {
	fire, paths := b.force, b.paths
	if !fire && len(paths) > 0 {
		fire = w.anyNotIgnored(ctx, paths)
	}
	git := b.git
	*b = batch{}
	if fire {
		w.onChange(git)
	}
	if w.hooks.flushed != nil {
		w.hooks.flushed(fire, paths)
	}
}
