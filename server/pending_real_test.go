package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestRealPendingAcrossRestart: a Bash request pending when the server
// stops is pending again for a new tab after the restart (the worker is
// asking); allowed, the command runs with no second prompt. A deleted
// session still denies what it has pending, and nothing of it is kept.
func TestRealPendingAcrossRestart(t *testing.T) {
	e, _ := realEnv(t)
	cwd := t.TempDir()
	c := newChat(e, cwd)
	if a := e.do("POST", c.path()+"/input", map[string]string{"content": "bash: touch kept.txt"}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	req := readJSON(t, c.tab, "permission-request")
	c.tab.CloseNow()

	e.restart()
	c.connect()
	again := readJSON(t, c.tab, "permission-request")
	if again["requestId"] != req["requestId"] || again["toolName"] != "Bash" {
		t.Fatalf("after the restart %v, want %v", again, req)
	}
	var w worker.Info
	if e.do("GET", c.path(), nil).json(t, &w); w.Activity == nil || *w.Activity != worker.ActivityAsking {
		t.Fatalf("worker after the restart: %+v", w)
	}
	c.answer(map[string]any{"type": "permission-response", "requestId": req["requestId"], "behavior": "allow"})
	for {
		f := readJSON(t, c.tab, "")
		if f["type"] == "permission-request" {
			t.Fatalf("asked again: %v", f)
		}
		if m, _ := f["message"].(map[string]any); f["type"] == "sdk-message" && m["type"] == "result" {
			break
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, "kept.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}

	d := newChat(e, t.TempDir())
	if a := e.do("POST", d.path()+"/input", map[string]string{"content": "bash: touch gone.txt"}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	readJSON(t, d.tab, "permission-request")
	if a := e.do("DELETE", "/api/sessions/"+d.sid, nil); a.status/100 != 2 {
		t.Fatalf("delete: %d %s", a.status, a.body)
	}
	if f := readJSON(t, d.tab, "permission-resolved"); f["behavior"] != "deny" {
		t.Fatalf("a delete answered %v", f)
	}
	if recs, err := e.store.Pending(d.wid); err != nil || len(recs) != 0 {
		t.Fatalf("pending records of a deleted worker: %v %v", recs, err)
	}
}
