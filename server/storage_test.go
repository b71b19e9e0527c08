//go:build linux

package server

import (
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestStorageErrorAnswers makes the database file unable to grow
// (RLIMIT_FSIZE, the failure a full disk gives), then lifts the limit: a
// create while the disk is full answers 507 storage_full and creates
// nothing, and the same create succeeds once there is room again, without a
// restart. The real binary on a full disk: TestDiskFull (main_test).
func TestStorageErrorAnswers(t *testing.T) {
	e := newEnv(t, nil)
	before := e.createSession(t.TempDir())
	fi, err := os.Stat(filepath.Join(e.dir, "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	restore := limitFileSize(t, max(fi.Size(), testlogRoom(t)))
	// Sessions fill the free pages; then a commit must grow the file.
	var a answer
	n := 1
	for range 20000 {
		a = e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none", "title": string(make([]byte, 200))})
		if a.status != http.StatusCreated {
			break
		}
		n++
	}
	restore()
	if a.status != http.StatusInsufficientStorage || a.errCode(t) != "storage_full" {
		t.Fatalf("create on a full disk: %d %s", a.status, a.body)
	}
	if got := len(e.mgr.Sessions()); got != n {
		t.Fatalf("%d sessions after the failed create, want %d", got, n)
	}
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none"}); a.status != http.StatusCreated {
		t.Fatalf("create once there is room again: %d %s", a.status, a.body)
	}
	n++
	e.restart()
	if got := len(e.mgr.Sessions()); got != n {
		t.Fatalf("%d sessions after a restart, want %d", got, n)
	}
	if a := e.do("GET", "/api/sessions/"+before.ID, nil); a.status != http.StatusOK {
		t.Fatalf("first session after a restart: %d", a.status)
	}
}

// testlogRoom is a file size limit that leaves go test's own log of file
// accesses (-test.testlogfile, written by this process while the limit
// holds) room to grow: that log fails the package when it cannot write.
func testlogRoom(t *testing.T) int64 {
	f := flag.Lookup("test.testlogfile")
	if f == nil || f.Value.String() == "" {
		return 0
	}
	fi, err := os.Stat(f.Value.String())
	if err != nil {
		return 0
	}
	t.Logf("go test's access log is %d bytes", fi.Size())
	return fi.Size() + 256<<10
}

// limitFileSize caps the size of files this process writes; writes beyond
// fail with EFBIG, and SIGXFSZ, which would kill the process, is ignored
// meanwhile.
func limitFileSize(t *testing.T, size int64) (restore func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: uint64(size), Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	done := false
	restore = func() {
		if done {
			return
		}
		done = true
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
		signal.Reset(syscall.SIGXFSZ)
	}
	t.Cleanup(restore)
	return restore
}

// TestInputOnFullDisk: on a full disk, input to an sdk worker answers 507
// storage_full, and the message reaches neither the tabs nor the CLI; once
// there is room the conversation goes on.
func TestInputOnFullDisk(t *testing.T) {
	e := sdkEnv(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	if a := e.do("POST", base+"/input", map[string]string{"content": "first"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	stored(t, tab) // the CLI runs
	fi, err := os.Stat(filepath.Join(e.dir, "agentdesk.db"))
	if err != nil {
		t.Fatal(err)
	}
	restore := limitFileSize(t, max(fi.Size(), testlogRoom(t)))
	for range 20000 { // fill the file
		a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none", "title": string(make([]byte, 200))})
		if a.status != http.StatusCreated {
			break
		}
	}
	a := e.do("POST", base+"/input", map[string]string{"content": "lost " + strings.Repeat("x", 200<<10)})
	restore()
	if a.status != http.StatusInsufficientStorage || a.errCode(t) != "storage_full" {
		t.Fatalf("input on a full disk: %d %s", a.status, a.body)
	}
	if a := e.do("POST", base+"/input", map[string]string{"content": "after"}); a.status != http.StatusAccepted {
		t.Fatalf("input once there is room: %d %s", a.status, a.body)
	}
	for _, f := range stored(t, tab) {
		b, _ := json.Marshal(f)
		if strings.Contains(string(b), "lost ") {
			t.Fatalf("a message the disk refused reached the tab or the CLI: %.200s", b)
		}
		if msg := f["message"].(map[string]any); msg["type"] == "result" && !strings.Contains(string(b), "Echo: after") {
			t.Fatalf("the turn after the full disk: %.300s", b)
		}
	}
}
