package server

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/coder/websocket/wsjson"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/files"
)

// TestFSWorkerSocket: a files worker added to a session serves a socket
// over a real WebSocket: the tab names its folders, a file made in one of
// them on disk comes as fs-changed for that folder, and a save through
// the REST route does too.
func TestFSWorkerSocket(t *testing.T) {
	e := newEnv(t, map[worker.Kind]worker.Factory{worker.KindFiles: files.New})
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := e.createSession(dir)
	a := e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]string{"kind": "files"})
	expect(t, a, http.StatusCreated, "")
	var w worker.Info
	a.json(t, &w)
	if w.Status != worker.StatusRunning {
		t.Fatalf("files worker %+v", w)
	}
	c := e.dial("/ws/sessions/" + s.ID + "/workers/" + w.ID)
	defer c.CloseNow()
	if f := readJSON(t, c, ""); f["type"] != "fs-watching" {
		t.Fatalf("first frame %v", f)
	}
	if err := wsjson.Write(t.Context(), c, map[string]any{"type": "watch", "paths": []string{".", "src"}}); err != nil {
		t.Fatal(err)
	}
	if f := readJSON(t, c, "fs-watching"); fmt.Sprint(f["paths"]) != "[. src]" {
		t.Fatalf("watching %v", f)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "made.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if f := readJSON(t, c, "fs-changed"); fmt.Sprint(f["paths"]) != "[src]" {
		t.Fatalf("changed %v, want [src]", f)
	}
	a = e.do("PUT", "/api/sessions/"+s.ID+"/fs/file?path=top.txt", "x", "If-None-Match", "*")
	expect(t, a, http.StatusCreated, "")
	if f := readJSON(t, c, "fs-changed"); fmt.Sprint(f["paths"]) != "[.]" {
		t.Fatalf("changed %v, want [.]", f)
	}
	if err := wsjson.Write(t.Context(), c, map[string]any{"type": "nope"}); err != nil {
		t.Fatal(err)
	}
	if f := readJSON(t, c, "error"); f["code"] != "invalid_message" {
		t.Fatalf("error frame %v", f)
	}
}
