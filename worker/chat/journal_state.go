package chat

import (
	"sync"

	"github.com/agentdesk/agentdesk/internal/agent"

	"github.com/agentdesk/agentdesk/worker"
)

// The state the journal keeps beside the log for attachments (see
// journal), read by the runtime's control handlers through these methods.

// currentActivity returns the activity as the tabs last saw it.
func (j *journal) currentActivity() worker.Activity {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	return j.activity
}

// published is the seq of the last stored message the tabs were sent.
func (j *journal) published() uint64 {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	return j.cursor
}

// busy reports whether a turn runs or a permission request waits.
func (j *journal) busy() bool {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	return j.inTurn || len(j.pending) > 0
}

// idleWait returns a channel closed once the activity is idle: at once
// when it is, else when the running turn ends (a result, or the CLI's
// exit).
func (j *journal) idleWait() <-chan struct{} {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	if j.activity == worker.ActivityIdle {
		c := make(chan struct{})
		close(c)
		return c
	}
	if j.idle == nil {
		j.idle = make(chan struct{})
	}
	return j.idle
}

// claim marks the pending request id as being answered and returns it, or
// nil when no such request is waiting.
func (j *journal) claim(id string) *permission {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	for _, p := range j.pending {
		if p.id == id && !p.answered {
			p.answered = true
			return p
		}
	}
	return nil
}

// claimAll marks every pending request not yet answered as being answered
// and returns them.
func (j *journal) claimAll() []*permission {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	var ps []*permission
	for _, p := range j.pending {
		if !p.answered {
			p.answered = true
			ps = append(ps, p)
		}
	}
	return ps
}

// restore makes ps, requests stored before a restart, pending before
// anything is published: the activity starts as asking.
func (j *journal) restore(ps []*permission) {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	j.pending = ps
	if len(ps) > 0 {
		j.activity = worker.ActivityAsking
	}
}

// pendingOf returns the ids of the requests of agent p still pending.
func (j *journal) pendingOf(p agent.Conn) []string {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	var ids []string
	for _, q := range j.pending {
		if q.proc == p {
			ids = append(ids, q.id)
		}
	}
	return ids
}

// drop removes p from the pending requests without publishing: for a
// closed journal, whose tabs are gone.
func (j *journal) drop(p *permission) {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	j.removePendingLocked(p)
}

func (j *journal) removePendingLocked(p *permission) {
	for i, q := range j.pending {
		if q == p {
			j.pending = append(j.pending[:i:i], j.pending[i+1:]...)
			return
		}
	}
}

// maxTurnBytes bounds the stream_event frames kept for the message being
// streamed, which a tab that attaches mid-message is sent after the
// history. A message streamed in deltas costs several times its text in
// frames; past this, the tab sees the message when it is stored (it
// ignores deltas of a block it has not seen start).
const maxTurnBytes = 8 << 20

// turnBuffer holds the stream_event frames of the message being streamed.
// The journal's pubMu guards it.
type turnBuffer struct {
	frames [][]byte
	size   int  // their bytes
	cut    bool // over maxTurnBytes: none kept until the message ends
}

// keep keeps a stream_event frame for later attachments.
func (t *turnBuffer) keep(e *entry) {
	switch {
	case e.endsMessage:
		// Every block of the message is stored by now (the CLI sends a
		// block's complete line before its content_block_stop): a tab
		// attaching later gets them from the log.
		t.clear()
	case t.cut:
	case t.size+len(e.frame) > maxTurnBytes:
		t.clear()
		t.cut = true
	default:
		t.frames = append(t.frames, e.frame)
		t.size += len(e.frame)
	}
}

func (t *turnBuffer) clear() { *t = turnBuffer{} }

// coalescer runs a function on a goroutine whenever poked, once per burst:
// a poke while it runs makes it run once more, never twice at once, and
// no goroutine is left once nothing is pending.
type coalescer struct {
	mu      sync.Mutex
	dirty   bool // poked since fn last started
	running bool
}

// poke makes fn run (again) soon, on a goroutine of wg. The caller keeps
// wg above zero while it pokes (wg.Go may not race a Wait at zero).
func (c *coalescer) poke(wg *sync.WaitGroup, fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dirty = true
	if !c.running {
		c.running = true
		wg.Go(func() { c.run(fn) })
	}
}

func (c *coalescer) run(fn func()) {
	for {
		c.mu.Lock()
		if !c.dirty {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.dirty = false
		c.mu.Unlock()
		fn()
	}
}
