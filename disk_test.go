//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// diskLimit is the largest file the server may write in TestDiskFull:
// enough to start, too little for the terminal output the test sends.
const diskLimit = 2 << 20

// TestDiskFull runs the server under RLIMIT_FSIZE (the same failure as a
// full disk: writes past the limit fail with EFBIG; SIGXFSZ is ignored) and
// fills its database with terminal output. Creating a session must then
// answer 507 storage_full with a clear message, not crash the server; after
// a restart without the limit every session created before is there.
// Recovery within one process is proven by persist's TestFailedCommit and
// server's TestStorageErrorAnswers.
func TestDiskFull(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("prlimit (util-linux) is not installed; CI must run the full-disk test")
		}
		t.Skip("!!! SKIPPING the full-disk test: prlimit (util-linux) is not installed !!!")
	}
	data := t.TempDir()
	// trap "" XFSZ: an ignored signal stays ignored across exec.
	wrap := []string{"/bin/sh", "-c", `trap "" XFSZ; exec prlimit --fsize=` + fmt.Sprint(diskLimit) + ` "$@"`, "sh"}
	p := startVia(t, wrap, data)
	var created []string
	var code int
	var body []byte
	deadline := time.Now().Add(2 * time.Minute)
	for code == 0 || code == 201 && time.Now().Before(deadline) {
		code, body = p.api(t, "POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"none"}`)
		if code != 201 {
			break
		}
		var s struct{ ID string }
		_ = json.Unmarshal(body, &s)
		created = append(created, s.ID)
		// 1 MB of output per terminal: the database soon needs to grow past the limit.
		cmd := `["/bin/sh","-c","head -c 1000000 /dev/zero | tr '\\0' x; sleep 300"]`
		if c, b := p.api(t, "POST", "/api/sessions/"+s.ID+"/workers", `{"kind":"terminal","command":`+cmd+`}`); c != 201 {
			code, body = c, b
			break
		}
	}
	if code == 201 {
		t.Fatalf("%d sessions with 1 MB of output each fit in %d bytes: the limit does not apply", len(created), diskLimit)
	}
	var e struct{ Error, Code string }
	if err := json.Unmarshal(body, &e); err != nil || code != 507 || e.Code != "storage_full" || !strings.Contains(e.Error, "disk is full") {
		t.Fatalf("write to a full disk answered %d %s, want 507 storage_full", code, body)
	}
	t.Logf("after %d sessions: %d %s", len(created), code, body)
	if c, _ := p.api(t, "GET", "/api/sessions", ""); c != 200 {
		t.Fatalf("the server stopped answering reads on a full disk: %d", c)
	}
	p.stop(t, syscall.SIGTERM)

	// Without the limit: the database opens and has every session.
	if fi, err := os.Stat(filepath.Join(data, "agentdesk.db")); err != nil || fi.Size() > diskLimit {
		t.Fatalf("database file: %v, %v", fi, err)
	}
	p2 := start(t, data)
	defer p2.stop(t, syscall.SIGTERM)
	for _, id := range created {
		if c, b := p2.api(t, "GET", "/api/sessions/"+id, ""); c != 200 {
			t.Fatalf("session %s after the restart: %d %s", id, c, b)
		}
	}
	if c, b := p2.api(t, "POST", "/api/sessions", `{"cwd":"`+t.TempDir()+`","agent":"none"}`); c != 201 {
		t.Fatalf("create after the restart: %d %s", c, b)
	}
}
