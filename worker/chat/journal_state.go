package chat

import (
	"encoding/json"

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
// when it is, else when the running turn ends (a result, or the agent's
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

// pendingFrames returns the frames of the requests still waiting for an
// answer, oldest first.
func (j *journal) pendingFrames() []json.RawMessage {
	j.pubMu.Lock()
	defer j.pubMu.Unlock()
	var out []json.RawMessage
	for _, p := range j.pending {
		if !p.answered {
			out = append(out, json.RawMessage(p.frame))
		}
	}
	return out
}
