// Package files is the worker kind of the Files tab. It starts no process:
// the tab reads and changes files over REST (internal/fsview behind the
// server's /fs routes), and its socket tells the tab which of the folders
// it shows have changed, so the tree follows the disk without a reload.
//
// Why a worker kind, not a socket of its own: a kind is what the tab strip,
// the add-worker menu and the session's stored workers already know; the
// manager owns its lifecycle and the server already serves every kind's
// socket with the same auth, origin checks, pump and shutdown. A kind that
// starts no process costs an idle goroutine-free runtime.
//
// A client names its folders with {"type":"watch","paths":[…]}; the
// runtime answers with a fresh stream (HandleClient may return one), which
// is how it knows each socket's folders without knowing sockets: the old
// stream's OnClose drops the old set. The folders every socket asked for
// are watched with inotify (one watch per folder, not recursive), and only
// while asked for. Changes are coalesced for debounce and sent to every
// socket as one fs-changed frame; a client ignores folders it does not
// show. The git index and HEAD are watched too (while any folder is): a
// stage or a commit changes marks without touching the folders.
package files

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/agentdesk/agentdesk/internal/fsview"
	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// What a files runtime is, checked at build time.
var (
	_ worker.Runtime = (*Runtime)(nil)
	_ worker.Factory = New
)

// Runtime is a files worker. All methods are safe for concurrent use.
type Runtime struct {
	dir string
	log *slog.Logger
	hub *hub.Hub

	mu      sync.Mutex
	seq     uint64
	closed  bool
	refs    map[string]int // folder → how many streams watch it
	watcher *watcher       // nil while no folder is watched
}

// New is the worker.Factory of files workers. It reports running at once:
// there is nothing to start.
func New(_ context.Context, env worker.Env) (worker.Runtime, error) {
	r := &Runtime{dir: env.Session.Cwd, log: env.Log, hub: hub.New(0), refs: map[string]int{}}
	env.Report.Running()
	return r, nil
}

// Attach opens a stream that watches no folder yet: it replays an empty
// fs-watching, then carries every change frame.
func (r *Runtime) Attach(_ context.Context, _ string) (*hub.Stream, error) {
	return r.stream(nil)
}

// stream subscribes a socket that watches folders (already checked).
func (r *Runtime) stream(folders []string) (*hub.Stream, error) {
	sub, _ := r.hub.Subscribe(64)
	if err := r.retain(folders); err != nil {
		sub.Close()
		return nil, err
	}
	ack := wire.FSWatching(folders)
	return &hub.Stream{
		Replay:  func(yield func(hub.Frame) error) error { return yield(hub.Frame{Data: ack}) },
		Sub:     sub,
		OnClose: func() { r.release(folders) },
	}, nil
}

type clientFrame struct {
	Type  string   `json:"type"`
	Paths []string `json:"paths"`
}

// HandleClient takes {"type":"watch","paths":[…]}: the socket now shows
// these folders. It answers with a new stream for them; the server closes
// the old one.
func (r *Runtime) HandleClient(_ context.Context, data []byte) (*hub.Stream, error) {
	var f clientFrame
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("frame is not a JSON object: %w", worker.ErrInvalid)
	}
	if f.Type != wire.TypeFSWatch {
		return nil, fmt.Errorf("unknown frame type %q: files workers accept watch: %w", f.Type, worker.ErrInvalid)
	}
	if len(f.Paths) > wire.MaxFSWatch {
		return nil, fmt.Errorf("a socket may watch at most %d folders: %w", wire.MaxFSWatch, worker.ErrInvalid)
	}
	folders, err := r.folders(f.Paths)
	if err != nil {
		return nil, err
	}
	return r.stream(folders)
}

// folders keeps the paths that name folders of the tree (each once, in
// clean form): the rest are dropped, as fs-watching then shows.
func (r *Runtime) folders(paths []string) ([]string, error) {
	t, err := fsview.Open(r.dir)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if c, err := t.Folder(p); err == nil && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// retain counts the folders as watched by one more stream, starting the
// watcher and adding watches as needed.
func (r *Runtime) retain(folders []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("the files worker is stopped: %w", worker.ErrNotRunning)
	}
	for _, p := range folders {
		r.refs[p]++
		if r.refs[p] > 1 {
			continue
		}
		if r.watcher == nil {
			w, err := startWatcher(r.dir, r.publish)
			if err != nil {
				r.log.Error("watch folders", "dir", r.dir, "err", err)
				continue // the tab still works, without live changes
			}
			r.watcher = w
		}
		r.watcher.add(p)
	}
	return nil
}

// release undoes retain; the last folder gone stops the watcher.
func (r *Runtime) release(folders []string) {
	r.mu.Lock()
	var stop *watcher
	for _, p := range folders {
		if r.refs[p]--; r.refs[p] > 0 {
			continue
		}
		delete(r.refs, p)
		if r.watcher != nil {
			r.watcher.remove(p)
		}
	}
	if len(r.refs) == 0 {
		stop, r.watcher = r.watcher, nil
	}
	r.mu.Unlock()
	if stop != nil {
		stop.close()
	}
}

// publish sends one fs-changed frame to every socket.
func (r *Runtime) publish(paths []string) {
	frame := wire.FSChanged(paths)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	r.hub.Publish(r.seq, hub.Frame{Data: frame})
}

// Watching returns the folders watched now (for tests).
func (r *Runtime) Watching() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.watcher == nil {
		return nil
	}
	return r.watcher.folders()
}

// Stop ends the watcher and every stream. Safe to call more than once.
func (r *Runtime) Stop(context.Context) error {
	r.mu.Lock()
	r.closed = true
	w := r.watcher
	r.watcher = nil
	r.mu.Unlock()
	if w != nil {
		w.close()
	}
	r.hub.Close()
	return nil
}
