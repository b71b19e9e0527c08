package worker

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentdesk/agentdesk/internal/usage"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
)

// RateLimitState is the subscription limiter's state as a worker's CLI
// last reported it, with when and where: GET /api/rate-limits and the
// /ws/app rate-limit frame.
type RateLimitState struct {
	usage.RateLimit
	UpdatedAt time.Time `json:"updatedAt"`
	SessionID string    `json:"sessionId"`
	WorkerID  string    `json:"workerId"`
}

// RateLimitReporter is what an agent kind's Reporter also offers (found
// by type assertion): the CLI reported a new rate-limit state.
type RateLimitReporter interface {
	RateLimit(rl usage.RateLimit)
}

var _ RateLimitReporter = reporter{}

// RateLimit stores the state as the latest and broadcasts it. A state
// that could not be stored is logged and not broadcast: what the app is
// told is on disk. It runs on the kind's reporter goroutine, not on its
// publisher: the commit waits for the disk.
func (r reporter) RateLimit(rl usage.RateLimit) {
	st := RateLimitState{RateLimit: rl, UpdatedAt: r.m.now().UTC(), SessionID: r.sid, WorkerID: r.wid}
	b, err := json.Marshal(st)
	if err != nil {
		r.m.log.Error("encode rate limit", "err", err)
		return
	}
	r.m.commitMu.Lock()
	defer r.m.commitMu.Unlock()
	if err := <-r.m.store.Records().PutRateLimit(b); err != nil {
		r.m.log.Error("store rate limit", "worker", r.wid, "err", err)
		return
	}
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	r.m.publish(rateLimitFrame{Type: wire.TypeRateLimit, RateLimit: st})
}

type rateLimitFrame struct {
	Type      string         `json:"type"`
	RateLimit RateLimitState `json:"rateLimit"`
}

// Usage answers what the agents used: the roll-up of the stored usage
// records and the latest rate-limit state. Safe for concurrent use.
type Usage struct{ m *Manager }

// NewUsage returns the usage of m's workers.
func NewUsage(m *Manager) *Usage { return &Usage{m: m} }

// UsageGroup is how a roll-up is grouped: by day, session or model.
type UsageGroup = usage.Group

// ParseUsageGroup reads a grouping ("" is by day); an unknown one is an
// error.
func ParseUsageGroup(s string) (UsageGroup, error) { return usage.ParseGroup(s) }

// RateLimit returns the latest stored rate-limit state, nil when no CLI
// has reported one (API-key logins never do).
func (u *Usage) RateLimit() (*RateLimitState, error) {
	b, err := u.m.store.Records().RateLimit()
	if err != nil || b == nil {
		return nil, err
	}
	var st RateLimitState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("decode stored rate limit: %w", err)
	}
	return &st, nil
}

// UsageQuery selects a usage roll-up: days From to To (YYYY-MM-DD, UTC,
// both included), grouped by Group, of one session only when Session is
// not "".
type UsageQuery struct {
	From, To string
	Group    usage.Group
	Session  string
}

// UsageReport is GET /api/usage's answer.
type UsageReport struct {
	From    string       `json:"from"`
	To      string       `json:"to"`
	GroupBy usage.Group  `json:"groupBy"`
	Session string       `json:"sessionId,omitempty"`
	Rows    []UsageRow   `json:"rows"`
	Total   usage.Totals `json:"total"`
}

// UsageRow is one row: its key (a day, a session id or a model) and, for
// a session still present, its title.
type UsageRow struct {
	usage.Row
	Title string `json:"title,omitempty"`
}

// Report rolls up the stored usage records in q's range. Its cost is the
// number of turns in the range: it reads the per-turn records the sdk
// workers keep (worker/chat/meter.go), never the message logs.
func (u *Usage) Report(q UsageQuery) (UsageReport, error) {
	var recs []usage.Record
	err := u.m.store.UsageRange(q.From, q.To, func(v []byte) error {
		var rec usage.Record
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("decode usage record: %w", err)
		}
		if q.Session == "" || rec.Session == q.Session {
			recs = append(recs, rec)
		}
		return nil
	})
	if err != nil {
		return UsageReport{}, err
	}
	rows, total := usage.Rollup(recs, q.Group)
	rep := UsageReport{From: q.From, To: q.To, GroupBy: q.Group, Session: q.Session,
		Rows: make([]UsageRow, len(rows)), Total: total}
	u.m.mu.RLock()
	defer u.m.mu.RUnlock()
	for i, r := range rows {
		rep.Rows[i].Row = r
		if st, ok := u.m.sessions[r.Key]; ok && q.Group == usage.BySession {
			rep.Rows[i].Title = st.s.Title
		}
	}
	return rep, nil
}

// SessionCost is what session sid's agents have cost, over every stored
// result (GET /api/usage's figures).
func (u *Usage) SessionCost(sid string) (float64, error) { return sessionCost(u.m.store, sid) }

// sessionCost sums the cost of every usage record of session sid.
func sessionCost(store *persist.Store, sid string) (float64, error) {
	var sum float64
	err := store.UsageRange("0000-01-01", "9999-12-31", func(v []byte) error {
		var rec usage.Record
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("decode usage record: %w", err)
		}
		if rec.Session == sid {
			for _, t := range rec.Models {
				sum += t.CostUSD
			}
		}
		return nil
	})
	return sum, err
}
