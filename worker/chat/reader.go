package chat

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// maxBatch bounds the entries of an imported batch (import.go); the
// driver bounds the batches of CLI lines (claude.Process.Batches).
const maxBatch = 256

// read is the reader goroutine of one CLI process. It turns lines into
// entries until stdout ends, then reports the exit.
func (r *Runtime) read(p *claude.Process) {
	defer r.exited(p)
	r.consume(p, p.Batches())
}

// consume turns each batch of lines (all those waiting, taken together:
// one store call and one queue send for them) into entries and produces
// them, until batches closes or the runtime stops.
func (r *Runtime) consume(p *claude.Process, batches <-chan []claude.Line) {
	for {
		// Lines taken are lines held: leave them with the driver (whose
		// queue then fills and stops the CLI) while the publisher is
		// behind.
		r.journal.waitRoom()
		lines, ok := <-batches
		if !ok {
			return
		}
		r.noteOutput()
		var es []entry
		for _, l := range lines {
			es = r.entries(p, es, l)
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

// entries appends what line l becomes (usually one entry, none for lines
// that are not shown) to es.
func (r *Runtime) entries(p *claude.Process, es []entry, l claude.Line) []entry {
	if l.Err != nil {
		r.log.Warn("skip claude line", "err", l.Err, "prefix", string(l.Raw[:min(len(l.Raw), 200)]))
		return es
	}
	switch l.Type {
	case "stream_event":
		return append(es, entry{kind: kStream, msg: l.Raw, endsMessage: isMessageStop(l.Raw)})
	case "control_request":
		if l.Subtype != "can_use_tool" {
			r.log.Warn("unsupported claude control request", "subtype", l.Subtype)
			return es
		}
		perm, err := newPermission(p, l)
		if err != nil {
			r.log.Warn("bad can_use_tool request", "err", err)
			return es
		}
		if r.granted(perm) {
			r.allowAtOnce(p, perm) // allowed before a restart (pending.go)
			return es
		}
		r.keepPending(perm)
		return append(es, entry{kind: kAsk, frame: perm.frame, perm: perm})
	case "control_cancel_request":
		return r.cancelled(es, l.RequestID)
	case "control_response":
		return es // answers to our own requests; the driver keeps them
	case claude.TypeCommandLifecycle:
		return es // receipts for the uuids user messages carry: nothing new to show
	case "system":
		r.noteLine(l)
	}
	return r.stored(es, l)
}

// stored appends the entry of a complete message: it gets a uuid unique in
// this log (the CLI's, or a new one) and, for assistant lines, the html of
// its text blocks.
func (r *Runtime) stored(es []entry, l claude.Line) []entry {
	msg, id := l.Raw, l.UUID
	if id == "" || r.seen.has(id) {
		fresh := uuid.Must(uuid.NewV7()).String()
		// An empty or null "uuid" must be replaced, not joined by a second.
		had := id != "" || bytes.Contains(l.Raw, []byte(`"uuid"`))
		var err error
		if msg, err = withUUID(l.Raw, fresh, had); err != nil {
			r.log.Warn("skip claude line", "err", err)
			return es
		}
		id = fresh
	}
	r.seen.add(id)
	e := entry{kind: kStored, msg: msg, uuid: id, typ: l.Type}
	// A replayed record of a local command (after set_model the CLI prints
	// "<local-command-stdout>Set model to …" as a user line with
	// "isReplay":true) is no turn: it leaves the activity alone.
	e.history = l.Type == "user" && bytes.Contains(l.Raw, []byte(`"isReplay":true`))
	if id == l.UUID {
		e.line = l // msg is the line itself
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

// isMessageStop reports whether a stream_event wraps message_stop.
func isMessageStop(raw []byte) bool {
	// Most events are deltas: skip decoding those. Any message_stop event
	// holds this string, however its JSON is spaced.
	if !bytes.Contains(raw, []byte(`"message_stop"`)) {
		return false
	}
	var ev struct {
		Event struct {
			Type string `json:"type"`
		} `json:"event"`
	}
	return json.Unmarshal(raw, &ev) == nil && ev.Event.Type == "message_stop"
}

// recentIDsLen is how many recent uuids the reader remembers to catch a
// uuid the CLI repeats, which the log would reject with its whole batch.
const recentIDsLen = 4096

// recentIDs is a bounded set of the last uuids seen, safe for concurrent
// use (a new CLI's reader may start while the last one finishes). It
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
