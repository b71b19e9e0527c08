package worker

import (
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/persist"
)

// treeEvery is how often the descendants of running processes are read.
const treeEvery = time.Second

// trees records, while a worker's process runs, the processes it started,
// found by the parent chain (childproc.Descendants), so that a start after a
// crash ends them even when they lost the marker (a wrapper that cleared
// the environment) and their parent is gone by then (the CLI exits on
// stdin EOF when the server dies; its tool, in a session of its own,
// does not). A member stays recorded while it runs as recorded.
//
// One goroutine reads each family from /proc once a round (at the cost of
// the family, not of every process on the machine), and writes a
// worker's tree only when it changed; it runs while a recorded
// process does, and close ends it. All methods are safe for concurrent
// use.
type trees struct {
	store *persist.Store
	log   *slog.Logger
	every time.Duration

	mu      sync.Mutex
	roots   map[string]*rooted // worker id → its recorded process
	running bool
	closed  bool
	quit    chan struct{}
	wg      sync.WaitGroup
}

// rooted is one worker's recorded process and the members last recorded.
type rooted struct {
	id   childproc.Ident
	last []childproc.Ident
}

func newTrees(store *persist.Store, log *slog.Logger) *trees {
	return &trees{store: store, log: log, every: treeEvery, roots: make(map[string]*rooted), quit: make(chan struct{})}
}

// add starts following worker wid's new process id, replacing its last.
func (t *trees) add(wid string, id childproc.Ident) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.roots[wid] = &rooted{id: id}
	if !t.running {
		t.running = true
		t.wg.Go(t.loop)
	}
}

// close ends the goroutine and waits for it.
func (t *trees) close() {
	t.mu.Lock()
	if !t.closed {
		t.closed = true
		close(t.quit)
	}
	t.mu.Unlock()
	t.wg.Wait()
}

func (t *trees) loop() {
	tick := time.NewTicker(t.every)
	defer tick.Stop()
	for {
		select {
		case <-t.quit:
			return
		case <-tick.C:
		}
		if !t.round() {
			return
		}
	}
}

// round records every followed process's tree once, forgets the processes
// that ended, and reports whether any is left to follow (when none is,
// the loop is marked gone: the next add starts a new one).
func (t *trees) round() bool {
	t.mu.Lock()
	roots := make(map[string]rooted, len(t.roots))
	for wid, r := range t.roots {
		roots[wid] = *r
	}
	t.mu.Unlock()
	for wid, r := range roots {
		if !childproc.Alive(r.id) {
			t.forget(wid, r.id)
			continue
		}
		members := childproc.Descendants(r.id, r.last)
		slices.SortFunc(members, func(a, b childproc.Ident) int { return a.Pid - b.Pid })
		if sameMembers(members, r.last) {
			continue
		}
		root := persist.Process{Pid: r.id.Pid, Start: r.id.Start}
		if err := t.store.PutTree(wid, root, toMembers(members)); err != nil {
			t.log.Warn("record the processes a worker started", "worker", wid, "err", err)
			continue
		}
		t.setLast(wid, r.id, members)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.roots) == 0 {
		t.running = false
		return false
	}
	return true
}

func (t *trees) forget(wid string, id childproc.Ident) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.roots[wid]; r != nil && r.id == id {
		delete(t.roots, wid)
	}
}

func (t *trees) setLast(wid string, id childproc.Ident, members []childproc.Ident) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.roots[wid]; r != nil && r.id == id {
		r.last = members
	}
}

// family pins the processes of workers wids: each recorded process, the
// members last recorded and their live descendants. Take it before
// stopping anything; the caller closes it.
func (t *trees) family(wids ...string) *childproc.Family {
	var ids []childproc.Ident
	t.mu.Lock()
	for _, wid := range wids {
		if r := t.roots[wid]; r != nil {
			ids = append(append(ids, r.id), r.last...)
		}
	}
	t.mu.Unlock()
	return childproc.Pin(ids...)
}

func sameMembers(a, b []childproc.Ident) bool {
	return slices.EqualFunc(a, b, func(x, y childproc.Ident) bool { return x.Pid == y.Pid && x.Start == y.Start })
}

func toMembers(ids []childproc.Ident) []persist.Member {
	out := make([]persist.Member, len(ids))
	for i, id := range ids {
		out[i] = persist.Member{Pid: id.Pid, Start: id.Start}
	}
	return out
}
