package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/terminal"
	"github.com/coder/websocket"
)

func termKinds() map[worker.Kind]worker.Factory {
	return map[worker.Kind]worker.Factory{worker.KindTerminal: terminal.New}
}

// termClient collects a terminal socket's output by absolute offset.
type termClient struct {
	t    *testing.T
	c    *websocket.Conn
	next int64 // the offset after the last byte received
	out  bytes.Buffer
	// start is the offset of out[0].
	start  int64
	exited map[string]any
}

func (e *env) openTerm(path string, offset int64) *termClient {
	q := ""
	if offset >= 0 {
		q = fmt.Sprintf("?offset=%d", offset)
	}
	tc := &termClient{t: e.t, c: e.dial(path + q), next: -1}
	return tc
}

// read handles frames until stop returns true or the deadline passes.
func (tc *termClient) read(stop func(map[string]any) bool) {
	tc.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		mt, data, err := tc.c.Read(ctx)
		if err != nil {
			tc.t.Fatalf("terminal socket: %v (output so far %q)", err, tc.out.String())
		}
		var v map[string]any
		if mt == websocket.MessageBinary {
			off := int64(binary.BigEndian.Uint64(data[:8]))
			if tc.next < 0 {
				tc.start, tc.next = off, off
			}
			if off != tc.next {
				tc.t.Fatalf("frame at offset %d, expected %d: lost or doubled output", off, tc.next)
			}
			tc.out.Write(data[8:])
			tc.next += int64(len(data) - 8)
		} else if err := json.Unmarshal(data, &v); err != nil {
			tc.t.Fatalf("text frame is not JSON: %s", data)
		} else if v["type"] == "exit" {
			tc.exited = v
		}
		if stop(v) {
			return
		}
	}
}

func (tc *termClient) waitFor(s string) {
	tc.t.Helper()
	tc.read(func(map[string]any) bool { return strings.Contains(tc.out.String(), s) })
}

func (tc *termClient) send(v any) {
	tc.t.Helper()
	b, _ := json.Marshal(v)
	if err := tc.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		tc.t.Fatal(err)
	}
}

func (e *env) newTerminal(cmd ...string) (worker.Session, worker.Info, string) {
	e.t.Helper()
	s := e.createSession(e.t.TempDir())
	body := map[string]any{"kind": "terminal"}
	if len(cmd) > 0 {
		body["command"] = cmd
	}
	a := e.do("POST", "/api/sessions/"+s.ID+"/workers", body)
	if a.status != 201 {
		e.t.Fatalf("create terminal: %d %s", a.status, a.body)
	}
	var w worker.Info
	a.json(e.t, &w)
	return s, w, "/ws/sessions/" + s.ID + "/workers/" + w.ID
}

func TestTerminalTwoClientsAndReconnect(t *testing.T) {
	e := newEnv(t, termKinds())
	_, _, path := e.newTerminal("/bin/sh")
	a := e.openTerm(path, -1)
	defer a.c.CloseNow()
	b := e.openTerm(path, -1)
	defer b.c.CloseNow()
	a.send(map[string]string{"type": "input", "data": "echo one-$((40+2))\n"})
	a.waitFor("one-42")
	b.waitFor("one-42") // the other tab sees the same output
	b.send(map[string]string{"type": "input", "data": "echo two-$((50+5))\n"})
	a.waitFor("two-55") // typing from either tab works

	// Reconnect at the offset the first client reached while output keeps
	// coming: the new socket continues exactly there (read checks offsets).
	a.c.CloseNow()
	resumed := e.openTerm(path, a.next)
	defer resumed.c.CloseNow()
	b.send(map[string]string{"type": "input", "data": "seq 1 3000 | tail -n 1; echo done-$((1+1))\n"})
	resumed.waitFor("done-2")
	if resumed.start != a.next {
		t.Fatalf("resumed at %d, want %d", resumed.start, a.next)
	}
	// A full replay equals the stored bytes that both live clients saw.
	b.waitFor("done-2")
	full := e.openTerm(path, -1)
	defer full.c.CloseNow()
	full.read(func(v map[string]any) bool { return v["type"] == "history-end" })
	if !bytes.Contains(full.out.Bytes(), b.out.Bytes()) {
		t.Fatal("replay differs from what a live client saw")
	}
	// Past the end means the current end: no replay, just history-end.
	// (The shell may print its prompt meanwhile, so the end may have moved.)
	past := e.openTerm(path, 1<<40)
	defer past.c.CloseNow()
	past.read(func(v map[string]any) bool { return v["type"] == "history-end" })
	if past.out.Len() != 0 {
		t.Fatalf("an offset past the end replayed %q", past.out.String())
	}
}

func TestTerminalBadFrames(t *testing.T) {
	e := newEnv(t, termKinds())
	_, _, path := e.newTerminal("/bin/sh")
	c := e.dial(path)
	defer c.CloseNow()
	for _, f := range []string{`{`, `{"type":"nope"}`, `{"type":"resize","cols":0,"rows":5}`, `{"type":"input"}`, `"x"`} {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(f)); err != nil {
			t.Fatal(err)
		}
		if got := readJSON(t, c, "error"); got["code"] != "invalid_message" {
			t.Fatalf("frame %s: %v", f, got)
		}
	}
	_ = c.Write(context.Background(), websocket.MessageBinary, []byte("raw"))
	if got := readJSON(t, c, "error"); got["code"] != "invalid_message" {
		t.Fatalf("binary frame: %v", got)
	}
	// Still usable after all that.
	tc := &termClient{t: t, c: c, next: -1}
	tc.send(map[string]string{"type": "input", "data": "echo ok-$((3*3))\n"})
	tc.waitFor("ok-9")
	if a := e.do("GET", "/ws/sessions/nope/workers/nope", nil); a.status != 404 {
		t.Fatalf("unknown worker socket: %d", a.status)
	}
}

func TestTerminalSurvivesRestart(t *testing.T) {
	e := newEnv(t, termKinds())
	s, w, path := e.newTerminal("/bin/sh")
	tc := e.openTerm(path, -1)
	tc.send(map[string]string{"type": "input", "data": "echo kept-$((6*7))\n"})
	tc.waitFor("kept-42")
	tc.c.CloseNow()
	e.restart()

	var got worker.Info
	e.do("GET", "/api/sessions/"+s.ID+"/workers/"+w.ID, nil).json(t, &got)
	if got.Status != worker.StatusExited || got.Error == nil {
		t.Fatalf("terminal after restart: %+v", got)
	}
	old := e.openTerm(path, -1)
	old.waitFor("kept-42") // the scrollback is still there
	old.c.CloseNow()

	a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+w.ID+"/restart", nil)
	if a.status != 200 {
		t.Fatalf("restart: %d %s", a.status, a.body)
	}
	fresh := e.openTerm(path, -1)
	defer fresh.c.CloseNow()
	fresh.send(map[string]string{"type": "input", "data": "echo again-$((2+2))\n"})
	fresh.waitFor("again-4")
	if !strings.Contains(fresh.out.String(), "kept-42") {
		t.Fatal("old output lost after restart")
	}
}

func TestTerminalExitFrame(t *testing.T) {
	e := newEnv(t, termKinds())
	_, _, path := e.newTerminal("/bin/sh", "-c", "echo bye; exit 3")
	tc := e.openTerm(path, -1)
	defer tc.c.CloseNow()
	tc.read(func(v map[string]any) bool { return v["type"] == "exit" })
	if tc.exited["exitCode"] != 3.0 || !strings.Contains(tc.out.String(), "bye") {
		t.Fatalf("exit frame %v, output %q", tc.exited, tc.out.String())
	}
}
