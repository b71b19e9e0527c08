package server

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestCancelForce: POST …/cancel with {"force": true} skips the interrupt
// and ends the CLI (its turn never ends by itself); a bad body is refused
// and changes nothing; no body is the plain cancel of API.md.
func TestCancelForce(t *testing.T) {
	e := sdkEnv(t)
	e.stop()
	e.cfg.ChildEnv = append(os.Environ(), "FAKECLAUDE_HANG=1", "FAKECLAUDE_IGNORE_INTERRUPT=1")
	e.start()
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer tab.CloseNow()
	if a := e.do("POST", base+"/input", map[string]string{"content": "run the tests"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	readJSON(t, tab, "sdk-message")

	for _, bad := range []string{`{"force":"yes"}`, `{"force":true,"now":1}`, `[true]`, `{"force":true}{}`} {
		if a := e.do("POST", base+"/cancel", bad); a.status != http.StatusBadRequest {
			t.Errorf("cancel %s: %d %s, want 400", bad, a.status, a.body)
		}
	}
	var w worker.Info
	if e.do("GET", base, nil).json(t, &w); w.Activity == nil || *w.Activity != worker.ActivityActive {
		t.Fatalf("a refused cancel changed the turn: %+v", w)
	}

	a := e.do("POST", base+"/cancel", map[string]bool{"force": true})
	var got map[string]bool
	if a.status != http.StatusAccepted || json.Unmarshal(a.body, &got) != nil || !got["cancelled"] {
		t.Fatalf("forced cancel: %d %s", a.status, a.body)
	}
	if f := readJSON(t, tab, "stop-stage"); f["stage"] != "terminating" {
		t.Fatalf("first stage of a forced cancel: %v, want terminating", f)
	}
	if f := readJSON(t, tab, "exit"); f["signal"] != "SIGTERM" {
		t.Errorf("the CLI ended with %v, want SIGTERM", f)
	}
	if f := readJSON(t, tab, "stop-stage"); f["stage"] != "done" {
		t.Errorf("stage after the exit: %v, want done", f)
	}
	e.waitWorker(base, func(i worker.Info) bool { return i.Activity != nil && *i.Activity == worker.ActivityIdle })
	if a := e.do("POST", base+"/cancel", ""); a.status != http.StatusOK {
		t.Errorf("cancel with no body while idle: %d %s, want 200", a.status, a.body)
	}
}
