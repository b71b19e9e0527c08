package server

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/worker"
)

// The kinds of attention item (docs/api-extensions.md, "Inbox").
const (
	attnPermission = "permission" // a tool call waits for allow or deny
	attnQuestion   = "question"   // AskUserQuestion waits for answers
	attnPlan       = "plan"       // ExitPlanMode waits for approval
	attnError      = "error"      // the worker's status is error
	attnFinished   = "finished"   // a turn ended and nobody has looked yet
	attnStalled    = "stalled"    // the running turn shows no progress
)

// attentionItem is one entry of the "needs you" list.
type attentionItem struct {
	SessionID    string          `json:"sessionId"`
	SessionTitle string          `json:"sessionTitle"`
	WorkerID     string          `json:"workerId"`
	Kind         string          `json:"kind"`
	Since        time.Time       `json:"since"`
	Title        string          `json:"title"`
	Request      json.RawMessage `json:"request,omitempty"` // the permission-request frame
}

type attentionFrame struct {
	Type  string          `json:"type"`
	Items []attentionItem `json:"items"`
}

// attention derives the list of workers waiting for the user from the
// manager's lifecycle events, keeps the marks that the events alone cannot
// tell after a restart (turns that finished unseen, when each wait began)
// and announces the whole list on /ws/app whenever it changes.
type attention struct {
	mgr   *worker.Manager
	marks *attentionMarks
	now   func() time.Time

	mu    sync.Mutex // guards the fields below; taken before the manager's locks
	last  map[string]worker.Activity
	items []attentionItem
	frame []byte // the last frame announced
	// onNew, if set, is told the items that appeared in a change (not
	// those of the first list); called under mu (push.go).
	onNew func([]attentionItem)

	wg sync.WaitGroup // run
}

func newAttention(mgr *worker.Manager, path string) *attention {
	return &attention{
		mgr: mgr, marks: loadMarks(path), now: time.Now,
		last: map[string]worker.Activity{}, items: []attentionItem{},
	}
}

// start runs the event loop until ctx ends; wait waits for it.
func (a *attention) start(ctx context.Context) {
	a.wg.Add(1)
	go func() { defer a.wg.Done(); a.run(ctx) }()
}

func (a *attention) wait() { a.wg.Wait() }

// run follows the lifecycle events, resubscribing when it fell behind. It
// ends with ctx or when the manager closes its events, whichever is first:
// a closed manager answers every Subscribe with a subscription already
// done, so resubscribing then would spin.
func (a *attention) run(ctx context.Context) {
	for ctx.Err() == nil {
		sub, sync, err := a.mgr.Subscribe()
		if err != nil {
			return
		}
		a.observe(sync)
		a.refresh()
		a.follow(ctx, sub)
		sub.Close()
		if !sub.Kicked() {
			return
		}
	}
}

func (a *attention) follow(ctx context.Context, sub *hub.Sub) {
	var frames []hub.Frame
	for {
		select {
		case <-sub.Ready():
			frames = sub.Take(frames)
			for _, f := range frames {
				a.observe(f.Data)
			}
			a.refresh()
		case <-sub.Done():
			return
		case <-ctx.Done():
			return
		}
	}
}

// subscribe is Manager.Subscribe plus the current attention frame, taken
// together so that no attention frame is lost or repeated out of order.
func (a *attention) subscribe() (*hub.Sub, []byte, []byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.frame == nil {
		a.refreshLocked()
	}
	sub, sync, err := a.mgr.Subscribe()
	return sub, sync, a.frame, err
}

// list returns the current items, fresh.
func (a *attention) list() []attentionItem {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refreshLocked()
	return a.items
}

func (a *attention) refresh() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refreshLocked()
}

// refreshLocked recomputes the list and announces it when it changed.
func (a *attention) refreshLocked() {
	items := a.compute()
	b, err := json.Marshal(attentionFrame{Type: "attention", Items: items})
	if err != nil || string(b) == string(a.frame) {
		return
	}
	prev, first := a.items, a.frame == nil
	a.items, a.frame = items, b
	// Before the announcement: a tab that sees the new list and then
	// reports itself hidden must find the push decided already.
	if !first && a.onNew != nil {
		if n := newItems(prev, items); len(n) > 0 {
			a.onNew(n)
		}
	}
	a.mgr.Announce(b)
}

// compute walks every worker and lists what waits, oldest first.
func (a *attention) compute() []attentionItem {
	items := []attentionItem{}
	live := map[string]bool{}
	for _, s := range a.mgr.Sessions() {
		for _, w := range s.Workers {
			for _, it := range a.workerItems(s, w) {
				key := w.ID + "|" + it.Kind + "|" + requestID(it.Request)
				live[key] = true
				if it.Since.IsZero() {
					it.Since = a.marks.since(key, a.now())
				}
				it.SessionTitle = s.Title
				items = append(items, it)
			}
		}
	}
	a.marks.prune(live)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Since.Before(items[j].Since) })
	return items
}

func (a *attention) workerItems(s worker.Session, w worker.Info) []attentionItem {
	var out []attentionItem
	base := attentionItem{SessionID: s.ID, WorkerID: w.ID}
	if w.Status == worker.StatusError {
		it := base
		it.Kind, it.Title = attnError, "The worker failed"
		if w.Error != nil && *w.Error != "" {
			it.Title = *w.Error
		}
		out = append(out, it)
	}
	if w.Activity != nil {
		switch *w.Activity {
		case worker.ActivityStalled:
			it := base
			it.Kind, it.Title = attnStalled, "The turn shows no progress"
			out = append(out, it)
		case worker.ActivityAsking:
			out = append(out, a.requests(base)...)
		}
	}
	if at, ok := a.marks.unseenAt(w.ID); ok {
		it := base
		it.Kind, it.Title, it.Since = attnFinished, "The turn finished", at
		out = append(out, it)
	}
	return out
}
