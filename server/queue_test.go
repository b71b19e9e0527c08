package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

type queueAnswer struct {
	Items []wire.QueueItem `json:"items"`
}

func (e *env) queueContents(base string) string {
	e.t.Helper()
	a := e.do("GET", base+"/queue", nil)
	if a.status != http.StatusOK {
		e.t.Fatalf("GET queue: %d %s", a.status, a.body)
	}
	var q queueAnswer
	a.json(e.t, &q)
	if q.Items == nil {
		e.t.Fatalf("GET queue: items is not an array: %s", a.body)
	}
	var s []string
	for _, it := range q.Items {
		s = append(s, it.Content)
	}
	return strings.Join(s, ",")
}

// queueFrame reads frames until a queue frame holding want (contents
// joined by commas).
func queueFrame(t *testing.T, c *websocket.Conn, want string) {
	t.Helper()
	for {
		f := readJSON(t, c, "queue")
		var s []string
		for _, it := range f["items"].([]any) {
			s = append(s, it.(map[string]any)["content"].(string))
		}
		if strings.Join(s, ",") == want {
			return
		}
	}
}

// TestQueueREST drives every queue route and its errors. Items due in a
// day stay queued (the chat is idle and would deliver them otherwise).
func TestQueueREST(t *testing.T) {
	e := sdkEnv(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab1, tab2 := e.dial("/ws"+base[4:]), e.dial("/ws"+base[4:])
	defer tab1.CloseNow()
	defer tab2.CloseNow()
	if got := e.queueContents(base); got != "" {
		t.Fatalf("new queue %q", got)
	}
	later := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	ids := map[string]string{}
	for _, c := range []string{"a", "b", "c"} {
		a := e.do("POST", base+"/queue", map[string]string{"content": c, "notBefore": later})
		var it wire.QueueItem
		a.json(t, &it)
		if a.status != http.StatusCreated || it.ID == "" || it.CreatedAt.IsZero() || it.NotBefore == nil {
			t.Fatalf("POST queue %s: %d %s", c, a.status, a.body)
		}
		ids[c] = it.ID
	}
	if a := e.do("PATCH", base+"/queue/"+ids["b"], map[string]any{"position": 0}); a.status != http.StatusOK {
		t.Fatalf("PATCH position: %d %s", a.status, a.body)
	}
	if a := e.do("PATCH", base+"/queue/"+ids["a"], map[string]any{"content": "a2"}); a.status != http.StatusOK {
		t.Fatalf("PATCH content: %d %s", a.status, a.body)
	}
	if a := e.do("DELETE", base+"/queue/"+ids["c"], nil); a.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", a.status, a.body)
	}
	queueFrame(t, tab1, "b,a2")
	queueFrame(t, tab2, "b,a2")

	bad := []struct {
		method, path string
		body         any
		status       int
		code         wire.Code
	}{
		{"POST", "/queue", map[string]any{}, 400, wire.CodeInvalidField},
		{"POST", "/queue", map[string]any{"content": "  "}, 400, wire.CodeInvalidField},
		{"POST", "/queue", map[string]any{"content": strings.Repeat("x", 300<<10)}, 400, wire.CodeInvalidField},
		{"POST", "/queue", map[string]any{"content": "x", "notBefore": "tomorrow"}, 400, wire.CodeInvalidField},
		{"POST", "/queue", map[string]any{"content": "x", "bogus": 1}, 400, wire.CodeInvalidField},
		{"PATCH", "/queue/nope", map[string]any{"content": "x"}, 404, wire.CodeNotFound},
		{"PATCH", "/queue/" + ids["b"], map[string]any{"position": 2}, 400, wire.CodeInvalidField},
		{"PATCH", "/queue/" + ids["b"], map[string]any{"position": -1}, 400, wire.CodeInvalidField},
		{"PATCH", "/queue/" + ids["b"], map[string]any{"position": "x"}, 400, wire.CodeInvalidField},
		{"PATCH", "/queue/" + ids["b"], map[string]any{"content": ""}, 400, wire.CodeInvalidField},
		{"DELETE", "/queue/nope", nil, 404, wire.CodeNotFound},
		{"POST", "/input", map[string]any{"content": "x", "when": "later"}, 400, wire.CodeInvalidField},
	}
	for _, b := range bad {
		a := e.do(b.method, base+b.path, b.body)
		if a.status != b.status || a.errCode(t) != string(b.code) {
			t.Errorf("%s %s %v: %d %s, want %d %s", b.method, b.path, b.body, a.status, a.body, b.status, b.code)
		}
	}
	if got := e.queueContents(base); got != "b,a2" {
		t.Fatalf("queue after refused requests %q", got)
	}

	// "queue" while idle, behind nothing: delivered at once.
	for _, id := range []string{ids["a"], ids["b"]} {
		if a := e.do("DELETE", base+"/queue/"+id, nil); a.status != http.StatusNoContent {
			t.Fatalf("DELETE: %d %s", a.status, a.body)
		}
	}
	if a := e.do("POST", base+"/input", map[string]string{"content": "queued hello", "when": "queue"}); a.status != http.StatusAccepted {
		t.Fatalf("input when=queue: %d %s", a.status, a.body)
	}
	res := stored(t, tab1)
	if last := fmt.Sprint(res[len(res)-1]); !strings.Contains(last, "Echo: queued hello") {
		t.Errorf("result %s", last)
	}
	if got := e.queueContents(base); got != "" {
		t.Errorf("queue after delivery %q", got)
	}

	// The queue survives a restart of the server.
	if a := e.do("POST", base+"/queue", map[string]string{"content": "kept", "notBefore": later}); a.status != http.StatusCreated {
		t.Fatalf("POST: %d %s", a.status, a.body)
	}
	tab1.CloseNow()
	tab2.CloseNow()
	e.restart()
	if got := e.queueContents(base); got != "kept" {
		t.Errorf("queue after restart %q", got)
	}
	tab3 := e.dial("/ws" + base[4:])
	defer tab3.CloseNow()
	queueFrame(t, tab3, "kept") // a reload shows it
}

// TestQueueOtherKinds: workers that show no chat have no queue.
func TestQueueOtherKinds(t *testing.T) {
	e := newEnv(t, map[worker.Kind]worker.Factory{worker.KindTerminal: terminal.New})
	s := e.createSession(t.TempDir())
	a := e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]any{"kind": "terminal", "command": []string{"sleep", "60"}})
	var w worker.Info
	a.json(t, &w)
	base := "/api/sessions/" + s.ID + "/workers/" + w.ID
	for _, r := range []struct{ method, path string }{{"GET", "/queue"}, {"POST", "/queue"}, {"DELETE", "/queue/x"}} {
		var body any
		if r.method == "POST" {
			body = map[string]string{"content": "x"}
		}
		if a := e.do(r.method, base+r.path, body); a.status != http.StatusNotFound || a.errCode(t) != "not_found" {
			t.Errorf("%s %s on a terminal: %d %s", r.method, r.path, a.status, a.body)
		}
	}
}

// TestQueueKeptAcrossSwitch: a switch to the terminal view and back keeps
// the chat's queue. Meanwhile the pty-agent and the stopped chat worker
// refuse changes, and nothing is delivered.
func TestQueueKeptAcrossSwitch(t *testing.T) {
	e := sdkEnv(t)
	e.stop()
	lab := &agentLab{}
	e.kinds[worker.KindPTYAgent] = lab.factory
	e.start()
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	chat := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	later := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	if a := e.do("POST", chat+"/queue", map[string]string{"content": "kept", "notBefore": later}); a.status != http.StatusCreated {
		t.Fatalf("POST: %d %s", a.status, a.body)
	}

	var sw struct{ Worker worker.Info }
	switchTo(e, s.ID, "pty-agent", false).json(t, &sw)
	term := "/api/sessions/" + s.ID + "/workers/" + sw.Worker.ID
	if a := e.do("GET", term+"/queue", nil); a.status != http.StatusConflict || a.errCode(t) != "conflict" {
		t.Errorf("GET queue of the pty-agent: %d %s", a.status, a.body)
	}
	if a := e.do("POST", chat+"/queue", map[string]string{"content": "late"}); a.status != http.StatusConflict || a.errCode(t) != "conflict" {
		t.Errorf("POST queue of the stopped chat: %d %s", a.status, a.body)
	}
	if got := e.queueContents(chat); got != "kept" {
		t.Errorf("the stopped chat's queue %q", got)
	}

	switchTo(e, s.ID, "sdk", false).json(t, &sw)
	back := "/api/sessions/" + s.ID + "/workers/" + sw.Worker.ID
	if got := e.queueContents(back); got != "kept" {
		t.Fatalf("queue after the switch back %q", got)
	}
	tab := e.dial("/ws" + back[4:])
	defer tab.CloseNow()
	queueFrame(t, tab, "kept")
}
