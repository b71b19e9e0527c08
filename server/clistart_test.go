package server

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestMissingCLIEndsTurn: with --claude pointing nowhere, a message gets
// 503 claude_not_found, the turn ends (idle; Cancel has nothing to do), and
// the worker keeps the error for a page loaded later. Once the CLI is
// there, the next message starts it.
func TestMissingCLIEndsTurn(t *testing.T) {
	sdkEnv(t) // builds the fake CLI
	path := filepath.Join(t.TempDir(), "bin", "claude")
	e := &env{t: t, dir: t.TempDir(), kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(path)},
		cfg: worker.Config{ClaudePath: path, ChildEnv: os.Environ()}}
	e.start()
	t.Cleanup(e.stop)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")

	a := e.do("POST", base+"/input", map[string]string{"content": "hello"})
	if a.status != http.StatusServiceUnavailable || a.errCode(t) != "claude_not_found" {
		t.Fatalf("input without a CLI: %d %s", a.status, a.body)
	}
	if f := readJSON(t, tab, "error"); f["code"] != "claude_not_found" {
		t.Fatalf("error frame %v", f)
	}
	for readJSON(t, tab, "activity")["state"] != "idle" {
	}
	if a := e.do("POST", base+"/cancel", nil); a.status != http.StatusOK {
		t.Fatalf("cancel after the failed start: %d %s", a.status, a.body)
	}
	// A page loaded now: the sdk reports its activity to the manager in
	// the background, so the stored worker may say idle a moment after
	// the tab.
	w := e.waitWorker(base, func(w worker.Info) bool { return w.Activity != nil && *w.Activity == worker.ActivityIdle })
	if w.Status != worker.StatusError || w.Error == nil {
		t.Fatalf("worker after the failed start: %+v", w)
	}

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fakeCLI, path); err != nil {
		t.Fatal(err)
	}
	if a := e.do("POST", base+"/input", map[string]string{"content": "again"}); a.status != http.StatusAccepted {
		t.Fatalf("input once the CLI is there: %d %s", a.status, a.body)
	}
	stored(t, tab)
	e.do("GET", base, nil).json(t, &w)
	if w.Status != worker.StatusRunning || w.Error != nil {
		t.Fatalf("worker after a start that worked: %+v", w)
	}
}
