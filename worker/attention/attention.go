// Package attention is the "needs you" list (docs/api-extensions.md,
// "Inbox"): the workers waiting for the user, derived from the manager's
// lifecycle events, with the marks the events alone cannot tell after a
// restart (turns that finished unseen, when each wait began) kept in the
// store's records. It announces the whole list on /ws/app whenever it
// changes, and tells a listener (Web Push, worker/notify) the items that
// are new.
//
// Its one goroutine (Start) follows the manager's events until Close or
// until the manager closes them.
package attention

import (
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// The kinds of item.
const (
	KindPermission = "permission" // a tool call waits for allow or deny
	KindQuestion   = "question"   // AskUserQuestion waits for answers
	KindPlan       = "plan"       // ExitPlanMode waits for approval
	KindError      = "error"      // the worker's status is error
	KindFinished   = "finished"   // a turn ended and nobody has looked yet
	KindStalled    = "stalled"    // the running turn shows no progress
)

// Item is one entry of the list.
type Item struct {
	SessionID    string          `json:"sessionId"`
	SessionTitle string          `json:"sessionTitle"`
	WorkerID     string          `json:"workerId"`
	Kind         string          `json:"kind"`
	Since        time.Time       `json:"since"`
	Title        string          `json:"title"`
	Request      json.RawMessage `json:"request,omitempty"` // the permission-request frame
}

// RequestID is the id of the item's permission request, "" for none.
func (it Item) RequestID() string { return RequestID(it.Request) }

// key names an item across changes of the list.
func (it Item) key() string { return it.WorkerID + "|" + it.Kind + "|" + it.RequestID() }

type frame struct {
	Type  string `json:"type"`
	Items []Item `json:"items"`
}

// Manager is what the list needs of the worker.Manager.
type Manager interface {
	Subscribe() (*hub.Sub, []byte, error)
	Sessions() []worker.Session
	Runtime(sid, wid string) (worker.Info, worker.Runtime, error)
	Announce(frame json.RawMessage)
}

// Options configures a List.
type Options struct {
	Manager Manager
	Store   *persist.Store
	// Legacy is the file an older agentdesk kept the marks in
	// (<data-dir>/attention.json): New moves them into the store once, then
	// removes it. "" for none.
	Legacy string
	// OnNew, if set, is told the items that appeared in a change (not
	// those of the first list). It is called with the list's lock held,
	// before the change is announced: it must only queue.
	OnNew func([]Item)
	Log   *slog.Logger
}

// List is the "needs you" list. Safe for concurrent use.
type List struct {
	mgr   Manager
	marks *marks
	now   func() time.Time
	onNew func([]Item)

	mu    sync.Mutex // guards the fields below and marks; taken before the manager's locks
	last  map[string]worker.Activity
	items []Item
	frame []byte // the last frame announced

	cancel context.CancelFunc
	wg     sync.WaitGroup // run
}

// New returns the list, with the marks of the store (and of Legacy,
// moved into it).
func New(o Options) *List {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	return &List{
		mgr: o.Manager, marks: loadMarks(o.Store.Records(), o.Legacy, log), now: time.Now, onNew: o.OnNew,
		last: map[string]worker.Activity{}, items: []Item{},
	}
}

// Start runs the list's goroutine, which follows the lifecycle events
// until Close, or until the manager closes them.
func (l *List) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	l.wg.Go(func() { l.run(ctx) })
}

// Close stops the goroutine and waits for it.
func (l *List) Close() {
	if l.cancel != nil {
		l.cancel()
	}
	l.wg.Wait()
}

// run follows the lifecycle events, resubscribing when it fell behind. It
// ends with ctx or when the manager closes its events, whichever is first:
// a closed manager answers every Subscribe with a subscription already
// done, so resubscribing then would spin.
func (l *List) run(ctx context.Context) {
	for ctx.Err() == nil {
		sub, sync, err := l.mgr.Subscribe()
		if err != nil {
			return
		}
		l.observe(sync)
		l.Refresh()
		l.follow(ctx, sub)
		sub.Close()
		if !sub.Kicked() {
			return
		}
	}
}

func (l *List) follow(ctx context.Context, sub *hub.Sub) {
	var frames []hub.Frame
	for {
		select {
		case <-sub.Ready():
			frames = sub.Take(frames)
			for _, f := range frames {
				l.observe(f.Data)
			}
			l.Refresh()
		case <-sub.Done():
			return
		case <-ctx.Done():
			return
		}
	}
}

// Subscribe is the manager's Subscribe plus the current attention frame,
// taken together so that no attention frame is lost or repeated out of
// order: what /ws/app sends first.
func (l *List) Subscribe() (sub *hub.Sub, sync, attention []byte, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.frame == nil {
		l.refreshLocked()
	}
	sub, sync, err = l.mgr.Subscribe()
	return sub, sync, l.frame, err
}

// Items returns the current items, fresh, oldest first.
func (l *List) Items() []Item {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refreshLocked()
	return l.items
}

// Refresh recomputes the list and announces it when it changed (after a
// permission was answered, say).
func (l *List) Refresh() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refreshLocked()
}

// refreshLocked recomputes the list and announces it when it changed.
func (l *List) refreshLocked() {
	items := l.compute()
	b, err := json.Marshal(frame{Type: "attention", Items: items})
	if err != nil || string(b) == string(l.frame) {
		return
	}
	prev, first := l.items, l.frame == nil
	l.items, l.frame = items, b
	// Before the announcement: a tab that sees the new list and then
	// reports itself hidden must find the push decided already.
	if !first && l.onNew != nil {
		if n := newItems(prev, items); len(n) > 0 {
			l.onNew(n)
		}
	}
	l.mgr.Announce(b)
}

// compute walks every worker and lists what waits, oldest first.
func (l *List) compute() []Item {
	items := []Item{}
	live := map[string]bool{}
	for _, s := range l.mgr.Sessions() {
		for _, w := range s.Workers {
			for _, it := range l.workerItems(s, w) {
				key := it.key()
				live[key] = true
				if it.Since.IsZero() {
					it.Since = l.marks.since(key, l.now())
				}
				it.SessionTitle = s.Title
				items = append(items, it)
			}
		}
	}
	l.marks.prune(live)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Since.Before(items[j].Since) })
	return items
}

func (l *List) workerItems(s worker.Session, w worker.Info) []Item {
	var out []Item
	base := Item{SessionID: s.ID, WorkerID: w.ID}
	if w.Status == worker.StatusError {
		it := base
		it.Kind, it.Title = KindError, "The worker failed"
		if w.Error != nil && *w.Error != "" {
			it.Title = *w.Error
		}
		out = append(out, it)
	}
	if w.Activity != nil {
		switch *w.Activity {
		case worker.ActivityStalled:
			it := base
			it.Kind, it.Title = KindStalled, "The turn shows no progress"
			out = append(out, it)
		case worker.ActivityAsking:
			out = append(out, l.requests(base)...)
		}
	}
	if at, ok := l.marks.unseenAt(w.ID); ok {
		it := base
		it.Kind, it.Title, it.Since = KindFinished, "The turn finished", at
		out = append(out, it)
	}
	return out
}

// newItems returns the items of next whose key is not in prev.
func newItems(prev, next []Item) []Item {
	had := map[string]bool{}
	for _, it := range prev {
		had[it.key()] = true
	}
	var out []Item
	for _, it := range next {
		if !had[it.key()] {
			out = append(out, it)
		}
	}
	return out
}
