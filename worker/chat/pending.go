package chat

import (
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
)

// Pending requests across a restart (docs/api-extensions.md, "Pending
// requests across a restart"). Each request of the agent is stored when it
// arrives and deleted when it is answered, withdrawn, or its agent exits.
// A server shutdown (Suspend) ends the agent without answering: the tool
// call stays unanswered in the conversation, and the request stays
// stored. The next Runtime of the worker shows it again (attach, activity
// asking); its answer then goes to a new agent (resuming the
// conversation) as a user message, and an allow grants the one next
// identical request of the model (grant).

// requests keeps the pending requests of one worker in the store and
// answers the ones nobody will. Safe for concurrent use.
type requests struct {
	store    *persist.Store
	wid      string
	j        *journal
	driver   agent.Driver
	stopping <-chan struct{}
	log      *slog.Logger

	mu        sync.Mutex
	grants    []grant // allows given after a restart, for the repeated request
	suspended bool    // Suspend: a shutdown keeps the pending requests
}

// stored is the record of a pending request in the store.
type stored struct {
	RequestID string          `json:"requestId"`
	ToolName  string          `json:"toolName"`
	Kind      string          `json:"kind,omitempty"` // kindNames; "" in records of older versions
	Input     json.RawMessage `json:"input"`
	Frame     json.RawMessage `json:"frame"`
	CreatedAt time.Time       `json:"createdAt"`
}

// kindNames name the request kinds in the store.
var kindNames = map[agent.RequestKind]string{agent.RequestTool: "tool", agent.RequestQuestion: "question", agent.RequestPlan: "plan"}

// kindOf reads a stored kind; a record of an older version has none, and
// the driver tells it by the tool when it can (agent.Records).
func (q *requests) kindOf(s stored) agent.RequestKind {
	for k, name := range kindNames {
		if name == s.Kind {
			return k
		}
	}
	if rec, ok := q.driver.(agent.Records); ok {
		return rec.RequestKind(s.ToolName)
	}
	return agent.RequestTool
}

// suspend makes the worker's Stop keep the pending requests, for a
// shutdown; isSuspended says whether it does.
func (q *requests) suspend() {
	q.mu.Lock()
	q.suspended = true
	q.mu.Unlock()
}

func (q *requests) isSuspended() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.suspended
}

// keep stores p before any tab sees it. It runs on the reader: requests
// are rare and a commit is short.
func (q *requests) keep(p *permission) {
	if isClosed(q.stopping) {
		// An agent ending for a shutdown may tell the model its request
		// failed and go on; what it asks now nobody sees.
		return
	}
	rec := stored{RequestID: p.id, ToolName: p.tool, Kind: kindNames[p.kind], Input: p.input, Frame: p.frame, CreatedAt: time.Now().UTC()}
	data, err := json.Marshal(rec)
	if err == nil {
		err = q.store.PutPending(q.wid, p.id, data)
	}
	if err != nil {
		q.log.Error("store pending permission request", "err", err)
	}
}

// forget deletes the records of answered requests.
func (q *requests) forget(ids ...string) {
	if len(ids) == 0 {
		return
	}
	if err := q.store.DeletePending(q.wid, ids...); err != nil {
		q.log.Warn("forget pending permission request", "err", err)
	}
}

// load returns the stored requests of the worker, oldest first, as
// permissions without an agent.
func (q *requests) load() []*permission {
	recs, err := q.store.Pending(q.wid)
	if err != nil {
		q.log.Error("load pending permission requests", "err", err)
		return nil
	}
	var out []stored
	for _, rec := range recs {
		var s stored
		if err := json.Unmarshal(rec.Data, &s); err != nil {
			q.log.Warn("skip a bad pending request record", "id", rec.ID, "err", err)
			continue
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b stored) int { return a.CreatedAt.Compare(b.CreatedAt) })
	ps := make([]*permission, 0, len(out))
	for _, s := range out {
		ps = append(ps, &permission{id: s.RequestID, tool: s.ToolName, kind: q.kindOf(s), input: s.Input, frame: s.Frame})
	}
	return ps
}

// resolved publishes that p was answered and drops it from pending.
func (q *requests) resolved(p *permission, behavior string) {
	e := entry{kind: kResolved, perm: p, frame: wire.PermissionResolved(p.id, behavior)}
	if err := q.j.produce([]entry{e}); err != nil {
		q.j.drop(p) // stopped: no tab is left to tell
	}
	q.forget(p.id)
}

// withdrawn handles the agent withdrawing its own request (it may when a
// turn is interrupted): the tabs drop the prompt.
func (q *requests) withdrawn(es []entry, id string) []entry {
	p := q.j.claim(id)
	if p == nil {
		return es
	}
	q.forget(p.id)
	return append(es, entry{kind: kResolved, perm: p, frame: wire.PermissionResolved(p.id, "deny")})
}

// denyAll answers every pending request with deny: on cancel and on stop a
// question nobody will answer must not hold the agent.
func (q *requests) denyAll(message string) {
	for _, p := range q.j.claimAll() {
		q.resolved(p, "deny")
		if p.proc == nil {
			continue // stored before a restart: no agent waits for it
		}
		if err := p.proc.Answer(p.id, agent.Answer{Message: message}); err != nil {
			q.log.Debug("deny permission request", "err", err)
		}
	}
}

// dropAsking ends agent p at once when a request of it is pending, for a
// shutdown: a gentle close may let the agent answer the request itself and
// go on with the model, a turn nobody sees (the claude CLI answers with an
// AbortError: testdata/resume-after-shutdown.json). Killed, it leaves the
// tool call unanswered, which resuming drops
// (testdata/resume-after-crash.json): a shutdown is then the same as a
// crash.
func (q *requests) dropAsking(p agent.Conn) {
	if len(q.j.pendingOf(p)) == 0 {
		return
	}
	if err := p.Signal(syscall.SIGKILL); err != nil {
		q.log.Warn("end the agent for a shutdown", "err", err)
	}
}

// grant is a one-shot allow for the next request of the agent for the same
// tool with the same input: the request the model makes again after a
// restored request was allowed, which the person already approved.
type grant struct {
	tool  string
	input json.RawMessage
}

// grant allows the next request of tool with input at once.
func (q *requests) grant(tool string, input json.RawMessage) {
	q.mu.Lock()
	q.grants = append(q.grants, grant{tool: tool, input: input})
	q.mu.Unlock()
}

// granted consumes the grant that matches p and reports whether there was
// one.
func (q *requests) granted(p *permission) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, g := range q.grants {
		if g.tool == p.tool && sameJSON(g.input, p.input) {
			q.grants = slices.Delete(q.grants, i, i+1)
			return true
		}
	}
	return false
}

// allowAtOnce answers a granted request of agent a without asking anyone.
func (q *requests) allowAtOnce(a agent.Conn, p *permission) {
	if err := a.Answer(p.id, agent.Answer{Allow: true, Input: p.input}); err != nil {
		q.log.Warn("answer a granted permission request", "err", err)
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
