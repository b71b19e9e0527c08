package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/usage"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// meter keeps the usage roll-up and the rate-limit state up to date from
// the stored messages of one worker (docs/api-extensions.md, "Usage and
// rate limits"). Each committed result line becomes one usage record in
// the store (persist.PutUsage: O(1) per turn, keyed by the result's seq,
// so a result offered twice counts once); each rate_limit_event goes to
// the manager (worker.RateLimitReporter), which stores and broadcasts it.
//
// Results reach it twice over: live, from the publisher once committed
// (observe), and at start from the log itself (catchUp), for whatever
// the live path missed: the results of a log written before this existed,
// or a result committed just before a crash whose usage write was lost.
// Imported history holds no result lines (session files have none), so
// a switch never counts a turn again.
type meter struct {
	store    *persist.Store
	sid, wid string
	log      *slog.Logger
	now      func() time.Time
	rl       worker.RateLimitReporter // nil without one

	proc usage.Process // the live process's sums; publisher only

	mu       sync.Mutex // guards latest
	latest   *usage.RateLimit
	reporter coalescer // runs report when latest changed
}

func newMeter(env worker.Env, log *slog.Logger) *meter {
	m := &meter{store: env.Store, sid: env.Info.SessionID, wid: env.Info.ID, log: log, now: time.Now}
	m.rl, _ = env.Report.(worker.RateLimitReporter)
	return m
}

// observe looks at a batch's committed entries before they are
// published, and returns once their usage records are committed: a tab
// that sees a result can read the roll-up with it. That costs one commit
// per turn. It runs on the publisher, which keeps wg above zero.
func (m *meter) observe(es []entry, wg *sync.WaitGroup) {
	if m == nil {
		return
	}
	var last <-chan error
	for i := range es {
		e := &es[i]
		if e.kind != kStored || e.history || (e.typ != "result" && e.typ != "rate_limit_event") {
			continue
		}
		line, err := frameMessage(e.frame)
		if err != nil {
			m.log.Warn("usage: read stored line", "seq", e.seq, "err", err)
			continue
		}
		if e.typ == "result" {
			if w := m.count(&m.proc, e.seq, line, m.now()); w != nil {
				last = w // writes commit in order: the last one covers all
			}
			continue
		}
		if rl, ok := usage.ParseRateLimit(line); ok && m.rl != nil {
			m.mu.Lock()
			m.latest = &rl
			m.mu.Unlock()
			m.reporter.poke(wg, m.report)
		}
	}
	if last != nil {
		if err := <-last; err != nil {
			// The next start's catch-up counts it.
			m.log.Warn("usage: store record", "worker", m.wid, "err", err)
		}
	}
}

// report tells the manager the latest state, on the coalescer's goroutine.
func (m *meter) report() {
	m.mu.Lock()
	rl := m.latest
	m.mu.Unlock()
	if rl != nil {
		m.rl.RateLimit(*rl)
	}
}

// count queues the usage record of the result line at seq, dated at.
func (m *meter) count(p *usage.Process, seq uint64, line []byte, at time.Time) <-chan error {
	models, err := p.Turn(line)
	if err != nil {
		if !errors.Is(err, usage.ErrNotResult) {
			m.log.Warn("usage: read result", "seq", seq, "err", err)
		}
		return nil
	}
	day := at.UTC().Format(time.DateOnly)
	b, err := json.Marshal(usage.Record{Session: m.sid, Worker: m.wid, Day: day, Models: models})
	if err != nil {
		m.log.Warn("usage: encode record", "err", err)
		return nil
	}
	return m.store.PutUsage(m.wid, seq, day, b)
}

// frameMessage returns the message a stored sdk-message frame holds.
func frameMessage(frame []byte) ([]byte, error) {
	var f struct {
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(frame, &f); err != nil {
		return nil, err
	}
	return f.Message, nil
}

// catchUpPage is how many stored messages catchUp reads at a time.
const catchUpPage = 256

// catchUp counts the results stored after the worker's usage mark, up to
// last (the log's end when the runtime was built; later results come
// live), then raises the mark to last. A result's day is that of the
// user message before it (agentdesk's uuids are v7, which carry their
// time), else today. It stops early when stopped reports true; the rest
// is done at a later start.
func (m *meter) catchUp(from, last uint64, stopped func() bool) {
	c := catchUp{m: m, at: m.now()}
	for after := from; after < last && !stopped(); {
		msgs, err := m.store.MessagesAfter(m.wid, after, catchUpPage)
		if err != nil {
			m.log.Warn("usage: catch up", "err", err)
			return
		}
		if len(msgs) == 0 {
			break
		}
		for _, msg := range msgs {
			if msg.Seq > last {
				break
			}
			c.look(msg)
		}
		after = msgs[len(msgs)-1].Seq
	}
	if c.lastWrite != nil {
		<-c.lastWrite // writes commit in order: the mark goes after them
	}
	if !stopped() {
		<-m.store.SetUsageMark(m.wid, last)
	}
}

// catchUp is the state of one catch-up pass.
type catchUp struct {
	m         *meter
	p         usage.Process
	at        time.Time // the time of the latest user message seen
	lastWrite <-chan error
}

func (c *catchUp) look(msg persist.Message) {
	if id, err := uuid.Parse(msg.UUID); err == nil && id.Version() == 7 {
		sec, nsec := id.Time().UnixTime()
		c.at = time.Unix(sec, nsec)
	}
	// Most lines are not results: skip their decode. Agents write
	// compact JSON, and a false match is refused by Turn.
	if !bytes.Contains(msg.Data, []byte(`"type":"result"`)) {
		return
	}
	if line, err := frameMessage(msg.Data); err == nil {
		if w := c.m.count(&c.p, msg.Seq, line, c.at); w != nil {
			c.lastWrite = w
		}
	}
}
