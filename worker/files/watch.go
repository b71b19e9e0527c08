package files

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

// debounce is how long changes must be quiet before they are sent; a
// steady stream of changes is still sent every 4×debounce.
const debounce = 100 * time.Millisecond

// watcher watches a set of folders of one tree (each on its own, not
// recursively) and the tree's git index and HEAD. It calls onChange with
// the folders that changed, from its own goroutine, one call at a time.
// Its folders were checked by fsview (inside the tree, no link out) just
// before they were added; a folder swapped for a link after that check
// would make inotify report on where the link leads, and the frames
// would still name only the folder the client asked for.
type watcher struct {
	dir      string
	fw       *fsnotify.Watcher
	onChange func([]string)
	cancel   context.CancelFunc
	wg       sync.WaitGroup

	mu      sync.Mutex
	watched map[string]string // absolute path → folder as the client named it
	git     map[string]bool   // absolute paths of the git index and HEAD
}

// startWatcher starts watching nothing but the git files of dir's work
// tree (when it is in one); add adds folders.
func startWatcher(dir string, onChange func([]string)) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{dir: dir, fw: fw, onChange: onChange, cancel: cancel, watched: map[string]string{}, git: map[string]bool{}}
	w.watchGit(ctx)
	w.wg.Go(func() { w.run(ctx) })
	return w, nil
}

// watchGit watches the git directory (non-recursively) for its index and
// HEAD. Outside a work tree it does nothing.
func (w *watcher) watchGit(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	gitDir, _, err := gitrepo.GitDirs(ctx, w.dir)
	if err != nil || w.fw.Add(gitDir) != nil {
		return
	}
	w.git[filepath.Join(gitDir, "index")] = true
	w.git[filepath.Join(gitDir, "HEAD")] = true
}

func (w *watcher) add(folder string) {
	abs := filepath.Join(w.dir, filepath.FromSlash(folder))
	if err := w.fw.Add(abs); err != nil {
		return // gone, or the system's watch limit: no live changes for it
	}
	w.mu.Lock()
	w.watched[abs] = folder
	w.mu.Unlock()
}

func (w *watcher) remove(folder string) {
	abs := filepath.Join(w.dir, filepath.FromSlash(folder))
	w.mu.Lock()
	delete(w.watched, abs)
	w.mu.Unlock()
	_ = w.fw.Remove(abs)
}

// folders returns the watched folders, sorted.
func (w *watcher) folders() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, f := range w.watched {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

func (w *watcher) close() {
	w.cancel()
	w.wg.Wait()
}

func (w *watcher) run(ctx context.Context) {
	defer w.fw.Close()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	pending := map[string]bool{}
	var first time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if !w.note(ev.Name, pending) {
				continue
			}
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			timer.Reset(max(min(debounce, first.Add(4*debounce).Sub(now)), 0))
		case <-w.fw.Errors:
			// An overflow lost events: the tab reloads its folders when it
			// reconnects or changes them; nothing to do here.
		case <-timer.C:
			paths := make([]string, 0, len(pending))
			for p := range pending {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			clear(pending)
			first = time.Time{}
			w.onChange(paths)
		}
	}
}

// note adds the folders an event on name changes to pending: the folder
// that holds name, name itself when it is a watched folder, every folder
// when name is the git index or HEAD. It reports whether any was added.
func (w *watcher) note(name string, pending map[string]bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	added := false
	if w.git[name] {
		for _, f := range w.watched {
			pending[f], added = true, true
		}
		return added
	}
	for _, abs := range []string{filepath.Dir(name), name} {
		if f, ok := w.watched[abs]; ok {
			pending[f], added = true, true
		}
	}
	return added
}
