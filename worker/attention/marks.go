package attention

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/agentdesk/agentdesk/persist"
)

// marks is what the list must remember across a restart: the turns that
// finished unseen and when each wait began. It is one small value in the
// store's records, replaced whole on each change. Guarded by List.mu.
type marks struct {
	rec    *persist.Records
	log    *slog.Logger
	Unseen map[string]unseenMark `json:"unseen"` // worker id →
	Since  map[string]time.Time  `json:"since"`  // item key → start of the wait
}

type unseenMark struct {
	SessionID string    `json:"sessionId"`
	At        time.Time `json:"at"`
}

// loadMarks reads the stored marks, after moving those of legacy into the
// store. Marks that cannot be read start empty: they are a convenience,
// not data to refuse a start over.
func loadMarks(rec *persist.Records, legacy string, log *slog.Logger) *marks {
	m := &marks{rec: rec, log: log}
	b, err := rec.AttentionMarks()
	if err != nil {
		log.Error("read the attention marks; they start empty", "err", err)
	} else if b != nil {
		_ = json.Unmarshal(b, m)
	}
	if legacy != "" {
		m.migrate(legacy, b != nil)
	}
	if m.Unseen == nil {
		m.Unseen = map[string]unseenMark{}
	}
	if m.Since == nil {
		m.Since = map[string]time.Time{}
	}
	return m
}

// migrate moves the marks an older agentdesk kept in the file at path into
// the store, once: the file goes when the store holds them. Marks already
// in the store win: the file is then the leftover of a move whose removal
// failed. A file that cannot be parsed only loses its marks, as it did.
func (m *marks) migrate(path string, stored bool) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		m.log.Error("read the old attention marks; tried again at the next start", "file", path, "err", err)
		return
	}
	var old marks
	if !stored && json.Unmarshal(data, &old) == nil {
		m.Unseen, m.Since = old.Unseen, old.Since
		if err := m.write(); err != nil {
			m.log.Error("move the old attention marks into the database; tried again at the next start", "file", path, "err", err)
			return
		}
	}
	for _, p := range []string{path, path + ".tmp"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			m.log.Error("remove the old attention marks", "file", p, "err", err)
		}
	}
}

func (m *marks) unseenAt(wid string) (time.Time, bool) {
	u, ok := m.Unseen[wid]
	return u.At, ok
}

func (m *marks) markUnseen(sid, wid string, at time.Time) {
	m.Unseen[wid] = unseenMark{SessionID: sid, At: at}
	m.save()
}

// clearSession drops the session's unseen marks; the error says they could
// not be stored.
func (m *marks) clearSession(sid string) error {
	changed := false
	for wid, u := range m.Unseen {
		if u.SessionID == sid {
			delete(m.Unseen, wid)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return m.write()
}

// since returns when the wait of key began, noting now for a new one.
func (m *marks) since(key string, now time.Time) time.Time {
	if t, ok := m.Since[key]; ok {
		return t
	}
	m.Since[key] = now
	m.save()
	return now
}

// prune forgets the waits that ended and the unseen marks of workers gone.
func (m *marks) prune(live map[string]bool) {
	changed := false
	for k := range m.Since {
		if !live[k] {
			delete(m.Since, k)
			changed = true
		}
	}
	for wid := range m.Unseen {
		if !live[wid+"|"+KindFinished+"|"] {
			delete(m.Unseen, wid)
			changed = true
		}
	}
	if changed {
		m.save()
	}
}

// save queues the marks for the store without waiting, best effort:
// losing them costs a "finished" entry or an exact wait time after a
// crash, not data. The store commits its queue in order, so the last save
// wins.
func (m *marks) save() {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	_ = m.rec.PutAttentionMarks(b)
}

// write stores the marks and waits for the commit.
func (m *marks) write() error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode attention marks: %w", err)
	}
	if err := <-m.rec.PutAttentionMarks(b); err != nil {
		return fmt.Errorf("store attention marks: %w", err)
	}
	return nil
}
