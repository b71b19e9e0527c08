package chat

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// maxBatch bounds the entries of an imported batch (import.go); the
// driver bounds the batches of events (agent.Conn.Events).
const maxBatch = 256

// read is the reader goroutine of one agent process. It turns events into
// entries until they end, then reports the exit.
func (r *Runtime) read(p agent.Conn) {
	defer r.exited(p)
	r.consume(p, p.Events())
}

// consume turns each batch of events (all those waiting, taken together:
// one store call and one queue send for them) into entries and produces
// them, until batches closes or the runtime stops.
func (r *Runtime) consume(p agent.Conn, batches <-chan []agent.Event) {
	for {
		// Events taken are events held: leave them with the driver (which
		// then stops reading the agent) while the publisher is behind.
		r.journal.waitRoom()
		evs, ok := <-batches
		if !ok {
			return
		}
		r.noteOutput()
		var es []entry
		for i := range evs {
			es = r.entries(p, es, &evs[i])
		}
		if len(es) == 0 {
			continue
		}
		r.renderAll(es)
		if err := r.journal.produce(es); err != nil {
			return // stopped: Close is ending the process
		}
	}
}

// entries appends what event ev becomes (usually one entry, none for a
// request granted before a restart) to es.
func (r *Runtime) entries(p agent.Conn, es []entry, ev *agent.Event) []entry {
	switch ev.Kind {
	case agent.KindDelta:
		return append(es, entry{kind: kStream, msg: ev.Raw, endsMessage: ev.EndsMessage})
	case agent.KindRequest:
		perm, err := newPermission(p, ev.Request)
		if err != nil {
			r.log.Warn("bad agent request", "err", err)
			return es
		}
		if r.granted(perm) {
			r.allowAtOnce(p, perm) // allowed before a restart (pending.go)
			return es
		}
		r.keepPending(perm)
		return append(es, entry{kind: kAsk, frame: perm.frame, perm: perm})
	case agent.KindWithdrawn:
		return r.cancelled(es, ev.RequestID)
	case agent.KindMessage:
		if ev.InForce != (agent.Settings{}) {
			r.noteInForce(ev.InForce)
		}
		return r.stored(es, ev)
	}
	return es // a kind this engine does not know yet
}

// stored appends the entry of a complete message: it gets a uuid unique in
// this log (the agent's, or a new one) and, for assistant messages, the
// html of its text blocks.
func (r *Runtime) stored(es []entry, ev *agent.Event) []entry {
	msg, id := ev.Raw, ev.UUID
	if id == "" || r.seen.has(id) {
		fresh := uuid.Must(uuid.NewV7()).String()
		// An empty or null "uuid" must be replaced, not joined by a second.
		had := id != "" || bytes.Contains(ev.Raw, []byte(`"uuid"`))
		var err error
		if msg, err = withUUID(ev.Raw, fresh, had); err != nil {
			r.log.Warn("skip agent message", "err", err)
			return es
		}
		id = fresh
	}
	r.seen.add(id)
	// A message that begins no turn (an agent's record of a local
	// command, printed while idle) leaves the activity alone.
	e := entry{kind: kStored, msg: msg, uuid: id, typ: ev.Type, history: ev.NoTurn}
	if id == ev.UUID {
		e.wrap = ev.Wrap // msg is the event's own message
	}
	return append(es, e)
}

// minParallel is the number of assistant lines in a batch from which
// rendering is spread over several goroutines.
const minParallel = 4

// renderAll fills in the html of the assistant entries of a batch. A burst
// of lines is rendered on every core: markdown and the line decode are the
// costliest step of the pipeline, and the only one that can run in
// parallel without changing the order.
func (r *Runtime) renderAll(es []entry) {
	var idx []int
	for i := range es {
		if es[i].kind == kStored && es[i].typ == "assistant" {
			idx = append(idx, i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(idx)/minParallel+1)
	if workers <= 1 {
		for _, i := range idx {
			r.render(&es[i])
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(idx); k += workers {
				r.render(&es[idx[k]])
			}
		})
	}
	wg.Wait()
}

func (r *Runtime) render(e *entry) {
	html, truncated, err := renderHTML(e.msg)
	if err != nil {
		r.log.Warn("render assistant markdown", "err", err)
	}
	e.html, e.htmlTruncated = html, truncated
}

// recentIDsLen is how many recent uuids the reader remembers to catch a
// uuid the agent repeats, which the log would reject with its whole batch.
const recentIDsLen = 4096

// recentIDs is a bounded set of the last uuids seen, safe for concurrent
// use (a new agent's reader may start while the last one finishes). It
// grows as uuids come, so a worker never used holds nothing.
type recentIDs struct {
	mu   sync.Mutex
	max  int
	ring []string // grows to max, then wraps at next
	next int
	set  map[string]struct{}
}

func newRecentIDs(n int) *recentIDs { return &recentIDs{max: n} }

func (s *recentIDs) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.set[id]
	return ok
}

func (s *recentIDs) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil {
		s.set = make(map[string]struct{})
	}
	if len(s.ring) < s.max {
		s.ring = append(s.ring, id)
	} else {
		delete(s.set, s.ring[s.next])
		s.ring[s.next] = id
		s.next = (s.next + 1) % s.max
	}
	s.set[id] = struct{}{}
}
