package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// attentionMarks is what the attention list must remember across a
// restart: the turns that finished unseen and when each wait began. It is
// kept in one small JSON file in the data dir, rewritten whole (renamed
// into place) on each change; a path of "" keeps it in memory only.
// Guarded by attention.mu.
type attentionMarks struct {
	path   string
	Unseen map[string]unseenMark `json:"unseen"` // worker id →
	Since  map[string]time.Time  `json:"since"`  // item key → start of the wait
}

type unseenMark struct {
	SessionID string    `json:"sessionId"`
	At        time.Time `json:"at"`
}

// loadMarks reads the file; a missing or unreadable one starts empty (the
// marks are a convenience, not data to refuse a start over).
func loadMarks(path string) *attentionMarks {
	m := &attentionMarks{path: path}
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			_ = json.Unmarshal(b, m)
		}
	}
	if m.Unseen == nil {
		m.Unseen = map[string]unseenMark{}
	}
	if m.Since == nil {
		m.Since = map[string]time.Time{}
	}
	return m
}

func (m *attentionMarks) unseenAt(wid string) (time.Time, bool) {
	u, ok := m.Unseen[wid]
	return u.At, ok
}

func (m *attentionMarks) markUnseen(sid, wid string, at time.Time) {
	m.Unseen[wid] = unseenMark{SessionID: sid, At: at}
	m.save()
}

// clearSession drops the session's unseen marks; the error says they could
// not be stored.
func (m *attentionMarks) clearSession(sid string) error {
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
func (m *attentionMarks) since(key string, now time.Time) time.Time {
	if t, ok := m.Since[key]; ok {
		return t
	}
	m.Since[key] = now
	m.save()
	return now
}

// prune forgets the waits that ended and the unseen marks of workers gone.
func (m *attentionMarks) prune(live map[string]bool) {
	changed := false
	for k := range m.Since {
		if !live[k] {
			delete(m.Since, k)
			changed = true
		}
	}
	for wid := range m.Unseen {
		if !live[wid+"|"+attnFinished+"|"] {
			delete(m.Unseen, wid)
			changed = true
		}
	}
	if changed {
		m.save()
	}
}

// save writes the marks, best effort: losing them costs a "finished" entry
// or an exact wait time after a crash, not data.
func (m *attentionMarks) save() { _ = m.write() }

func (m *attentionMarks) write() error {
	if m.path == "" {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode attention marks: %w", err)
	}
	tmp := m.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write attention marks: %w", err)
	}
	if err := os.Rename(tmp, filepath.Clean(m.path)); err != nil {
		return fmt.Errorf("store attention marks: %w", err)
	}
	return nil
}

func attentionPath(dataDir string) string {
	if dataDir == "" {
		return ""
	}
	return filepath.Join(dataDir, "attention.json")
}
