package chat

import (
	"bytes"
	"log/slog"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
)

// intake turns what an agent says (agent.Events) into the journal's
// entries: the reader goroutine of each agent runs its consume. Safe for
// concurrent use (the reader of a dead agent may finish while the next
// one's starts).
type intake struct {
	j     *journal
	reqs  *requests
	prefs *prefs
	dog   *guard
	seen  *recentIDs // uuids lately stored, see stored
	log   *slog.Logger
}

// consume turns each batch of events (all those waiting, taken together:
// one store call and one queue send for them) into entries and produces
// them, until batches closes or the runtime stops.
func (in *intake) consume(p agent.Conn, batches <-chan []agent.Event) {
	for {
		// Events taken are events held: leave them with the driver (which
		// then stops reading the agent) while the publisher is behind.
		in.j.waitRoom()
		evs, ok := <-batches
		if !ok {
			return
		}
		if progress(evs) {
			in.dog.noteOutput()
		}
		var es []entry
		for i := range evs {
			es = in.entries(p, es, &evs[i])
		}
		if len(es) == 0 {
			continue
		}
		renderAll(es, in.log)
		if err := in.j.produce(es); err != nil {
			return // stopped: Close is ending the process
		}
	}
}

// progress reports whether a batch shows the agent at work: anything but
// messages marked NoProgress (retries of an unreachable API).
func progress(evs []agent.Event) bool {
	for i := range evs {
		if !evs[i].NoProgress {
			return true
		}
	}
	return false
}

// entries appends what event ev becomes (usually one entry, none for a
// request granted before a restart) to es.
func (in *intake) entries(p agent.Conn, es []entry, ev *agent.Event) []entry {
	switch ev.Kind {
	case agent.KindDelta:
		return append(es, entry{kind: kStream, msg: ev.Raw, endsMessage: ev.EndsMessage})
	case agent.KindRequest:
		perm, err := newPermission(p, ev.Request)
		if err != nil {
			in.log.Warn("bad agent request", "err", err)
			return es
		}
		if in.reqs.granted(perm) {
			in.reqs.allowAtOnce(p, perm) // allowed before a restart (pending.go)
			return es
		}
		in.reqs.keep(perm)
		return append(es, entry{kind: kAsk, frame: perm.frame, perm: perm})
	case agent.KindWithdrawn:
		return in.reqs.withdrawn(es, ev.RequestID)
	case agent.KindMessage:
		if ev.InForce != (agent.Settings{}) {
			in.prefs.noteInForce(ev.InForce)
		}
		return in.stored(es, ev)
	}
	return es // a kind this engine does not know yet
}

// stored appends the entry of a complete message: it gets a uuid unique in
// this log (the agent's, or a new one) and, for assistant messages, the
// html of its text blocks.
func (in *intake) stored(es []entry, ev *agent.Event) []entry {
	msg, id := ev.Raw, ev.UUID
	if id == "" || in.seen.has(id) {
		fresh := uuid.Must(uuid.NewV7()).String()
		// An empty or null "uuid" must be replaced, not joined by a second.
		had := id != "" || bytes.Contains(ev.Raw, []byte(`"uuid"`))
		var err error
		if msg, err = withUUID(ev.Raw, fresh, had); err != nil {
			in.log.Warn("skip agent message", "err", err)
			return es
		}
		id = fresh
	}
	in.seen.add(id)
	// A message that begins no turn (an agent's record of a local
	// command, printed while idle) leaves the activity alone.
	e := entry{kind: kStored, msg: msg, uuid: id, typ: ev.Type, history: ev.NoTurn}
	if id == ev.UUID {
		e.wrap = ev.Wrap // msg is the event's own message
	}
	return append(es, e)
}
