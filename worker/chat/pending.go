package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/worker"
)

// Pending requests across a restart (docs/api-extensions.md, "Pending
// requests across a restart"). Each request of the agent is stored when it
// arrives and deleted when it is answered, withdrawn, or its CLI exits. A
// server shutdown (Suspend) ends the CLI without answering: the tool call
// stays unanswered in the session file, and the request stays stored. The
// next Runtime of the worker shows it again (attach, activity asking);
// its answer then goes to a new CLI (--resume) as a user message, and an
// allow grants the one next identical request of the model (grant).

var _ worker.Suspender = (*Runtime)(nil)

// stored is the record of a pending request in the store.
type stored struct {
	RequestID string          `json:"requestId"`
	ToolName  string          `json:"toolName"`
	Kind      string          `json:"kind,omitempty"` // kindNames; "" in records of older versions
	Input     json.RawMessage `json:"input"`
	Frame     json.RawMessage `json:"frame"`
	CreatedAt time.Time       `json:"createdAt"`
}

// Suspend is Stop for a server shutdown: the pending requests are neither
// denied nor forgotten, so the next start shows them again.
func (r *Runtime) Suspend(ctx context.Context) error {
	r.mu.Lock()
	r.suspended = true
	r.mu.Unlock()
	return r.Stop(ctx)
}

// dropAsking ends CLI p at once when a request of it is pending, for a
// shutdown: closing its stdin would make it answer the request itself
// with an AbortError and go on with the model (a turn nobody sees; see
// testdata/resume-after-shutdown.json). Killed, it leaves the tool call
// unanswered, which --resume drops (testdata/resume-after-crash.json):
// a shutdown is then the same as a crash.
func (r *Runtime) dropAsking(p agent.Conn) {
	if len(r.journal.pendingOf(p)) == 0 {
		return
	}
	if err := p.Signal(syscall.SIGKILL); err != nil {
		r.log.Warn("end the agent for a shutdown", "err", err)
	}
}

// kindNames name the request kinds in the store.
var kindNames = map[agent.RequestKind]string{agent.RequestTool: "tool", agent.RequestQuestion: "question", agent.RequestPlan: "plan"}

// kindOf reads a stored kind; a record of an older version has none, and
// the driver tells it by the tool when it can (agent.Records).
func (r *Runtime) kindOf(s stored) agent.RequestKind {
	for k, name := range kindNames {
		if name == s.Kind {
			return k
		}
	}
	if rec, ok := r.driver.(agent.Records); ok {
		return rec.RequestKind(s.ToolName)
	}
	return agent.RequestTool
}

// keepPending stores p before any tab sees it. It runs on the reader:
// requests are rare and a commit is short.
func (r *Runtime) keepPending(p *permission) {
	if r.isStopped() {
		// A CLI ending for a shutdown tells the model its request
		// failed and may go on; what it asks now nobody sees.
		return
	}
	rec := stored{RequestID: p.id, ToolName: p.tool, Kind: kindNames[p.kind], Input: p.input, Frame: p.frame, CreatedAt: time.Now().UTC()}
	data, err := json.Marshal(rec)
	if err == nil {
		err = r.env.Store.PutPending(r.env.Info.ID, p.id, data)
	}
	if err != nil {
		r.log.Error("store pending permission request", "err", err)
	}
}

// forgetPending deletes the records of answered requests.
func (r *Runtime) forgetPending(ids ...string) {
	if len(ids) == 0 {
		return
	}
	if err := r.env.Store.DeletePending(r.env.Info.ID, ids...); err != nil {
		r.log.Warn("forget pending permission request", "err", err)
	}
}

// loadPending returns the stored requests of the worker, oldest first, as
// permissions without a CLI.
func (r *Runtime) loadPending() []*permission {
	recs, err := r.env.Store.Pending(r.env.Info.ID)
	if err != nil {
		r.log.Error("load pending permission requests", "err", err)
		return nil
	}
	var out []stored
	for _, rec := range recs {
		var s stored
		if err := json.Unmarshal(rec.Data, &s); err != nil {
			r.log.Warn("skip a bad pending request record", "id", rec.ID, "err", err)
			continue
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b stored) int { return a.CreatedAt.Compare(b.CreatedAt) })
	ps := make([]*permission, 0, len(out))
	for _, s := range out {
		ps = append(ps, &permission{id: s.RequestID, tool: s.ToolName, kind: r.kindOf(s), input: s.Input, frame: s.Frame})
	}
	return ps
}

// grant is a one-shot allow for the next request of the agent for the same
// tool with the same input: the request the model makes again after a
// restored request was allowed, which the person already approved.
type grant struct {
	tool  string
	input json.RawMessage
}

// granted consumes the grant that matches p and reports whether there was
// one.
func (r *Runtime) granted(p *permission) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, g := range r.grants {
		if g.tool == p.tool && sameJSON(g.input, p.input) {
			r.grants = slices.Delete(r.grants, i, i+1)
			return true
		}
	}
	return false
}

// allowAtOnce answers a granted request of agent p without asking anyone.
func (r *Runtime) allowAtOnce(p agent.Conn, perm *permission) {
	if err := p.Answer(perm.id, agent.Answer{Allow: true, Input: perm.input}); err != nil {
		r.log.Warn("answer a granted permission request", "err", err)
	}
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ax, _ := json.Marshal(x) // maps marshal with sorted keys
	bx, _ := json.Marshal(y)
	return string(ax) == string(bx)
}

// answerRestored answers a request stored before a restart: its CLI is
// gone, so the answer becomes the next user message of a resumed CLI.
func (r *Runtime) answerRestored(p *permission, behavior, message string, input json.RawMessage, updates agent.Updates) error {
	if err := r.waitReady(r.ctx); err != nil {
		return fmt.Errorf("answer a permission request after a restart: %w", err)
	}
	// sendMu from the resolution to the stored answer: the queue, which
	// delivers once the chat is idle, comes after the answer, not first.
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.q.release() // the person is back, as for SendUser
	r.resolved(p, behavior)
	if behavior == "allow" {
		r.applied(updates) // a plan's mode first: the CLI starts with it
		if p.kind == agent.RequestTool {
			r.mu.Lock()
			r.grants = append(r.grants, grant{tool: p.tool, input: input})
			r.mu.Unlock()
		}
	}
	err := r.sendLocked(restoredAnswer(p.kind, p.tool, behavior, message, input), nil, r.journal.produceCommitted)
	if err != nil {
		return fmt.Errorf("answer a permission request after a restart: %w", err)
	}
	return nil
}
