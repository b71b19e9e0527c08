package server

import (
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
)

// realEnv is a server whose agent workers run the real CLI against api.
func realEnv(t *testing.T) (*env, *fakeapi.Server) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(claudePath), worker.KindPTYAgent: ptyagent.New},
		cfg:   worker.Config{ClaudePath: claudePath, ChildEnv: api.ClaudeEnv(t.TempDir())}}
	e.start()
	t.Cleanup(e.stop)
	return e, api
}

// chat is one sdk worker of a session, with a tab on its socket.
type chat struct {
	e        *env
	sid, wid string
	tab      *websocket.Conn
}

func newChat(e *env, cwd string) *chat {
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "agent": "sdk"}).json(e.t, &s)
	c := &chat{e: e, sid: s.ID, wid: s.Workers[0].ID}
	c.connect()
	return c
}

func (c *chat) path() string { return "/api/sessions/" + c.sid + "/workers/" + c.wid }

func (c *chat) connect() {
	c.tab = c.e.dial("/ws/sessions/" + c.sid + "/workers/" + c.wid)
	c.e.t.Cleanup(func() { c.tab.CloseNow() })
	readJSON(c.e.t, c.tab, "history-end")
}

func (c *chat) patch(body any) answer { return c.e.do("PATCH", c.path(), body) }

// turn sends content and returns the frames up to the turn's result;
// ask answers each permission request on the way (nil: fail on one).
func (c *chat) turn(content string, ask func(req map[string]any)) []map[string]any {
	t := c.e.t
	t.Helper()
	// A fresh tab per turn: a tab that does not read between turns cannot
	// answer the server's pings (the REST calls in between may take long
	// on a busy machine) and would be closed.
	c.tab.CloseNow()
	c.connect()
	if a := c.e.do("POST", c.path()+"/input", map[string]string{"content": content}); a.status != 202 {
		t.Fatalf("input %q: %d %s", content, a.status, a.body)
	}
	var out []map[string]any
	for {
		f := readJSON(t, c.tab, "")
		out = append(out, f)
		switch f["type"] {
		case "permission-request":
			if ask == nil {
				t.Fatalf("unexpected permission request during %q: %v", content, f)
			}
			ask(f)
		case "sdk-message":
			if m := f["message"].(map[string]any); m["type"] == "result" {
				return out
			}
		}
	}
}

func (c *chat) answer(v map[string]any) {
	if err := wsjson.Write(c.e.t.Context(), c.tab, v); err != nil {
		c.e.t.Fatal(err)
	}
}

// reported returns the permission modes the CLI reported in the frames
// (init and status lines), in order.
func reported(frames []map[string]any) []string {
	var out []string
	for _, f := range frames {
		m, _ := f["message"].(map[string]any)
		if m["type"] == "system" && m["permissionMode"] != nil {
			out = append(out, m["permissionMode"].(string))
		}
	}
	return out
}

// TestRealLiveModeAndModel changes the mode and the model of a running
// CLI: the fake API sees plan mode's reminder and the new model, the CLI
// reports the mode, and the settings are stored, broadcast, survive a
// restart and reach the CLI started after it.
func TestRealLiveModeAndModel(t *testing.T) {
	e, api := realEnv(t)
	app := e.dial("/ws/app")
	defer app.CloseNow()
	readJSON(t, app, "sessions-sync")
	c := newChat(e, t.TempDir())

	c.turn("hello one", nil)
	first := api.MessageRequests()[0]
	if first.InPlanMode() {
		t.Fatal("plan mode before it was chosen")
	}
	a := c.patch(map[string]string{"permissionMode": "plan"})
	var w worker.Info
	if a.json(t, &w); a.status != 200 || w.PermissionMode != "plan" || w.Model != "" {
		t.Fatalf("patch mode: %d %s", a.status, a.body)
	}
	for {
		f := readJSON(t, app, "worker-updated")
		if wk := f["worker"].(map[string]any); wk["id"] == c.wid && wk["permissionMode"] == "plan" {
			break
		}
	}
	frames := c.turn("hello two", nil)
	reqs := api.MessageRequests()
	if last := reqs[len(reqs)-1]; !last.InPlanMode() || last.LastUserText() != "hello two" {
		t.Fatalf("the request after the mode change lacks plan mode: %q", last.LastUserText())
	}
	if got := reported(frames); len(got) == 0 || got[len(got)-1] != "plan" {
		t.Fatalf("the CLI reported %v, want plan last", got)
	}

	before := len(api.MessageRequests())
	if a := c.patch(map[string]string{"model": "sonnet"}); a.status != 200 {
		t.Fatalf("patch model: %d %s", a.status, a.body)
	}
	c.turn("hello three", nil)
	reqs = api.MessageRequests()
	for _, r := range reqs[:before] {
		if strings.Contains(r.Model(), "sonnet") {
			t.Fatalf("a request before the change used %s", r.Model())
		}
	}
	if m := reqs[len(reqs)-1].Model(); !strings.Contains(m, "sonnet") {
		t.Fatalf("the request after set_model used %q", m)
	}

	// A restart: stored, and the new CLI starts with both.
	e.restart()
	if a := e.do("GET", c.path(), nil); !strings.Contains(string(a.body), `"permissionMode":"plan"`) || !strings.Contains(string(a.body), `"model":"sonnet"`) {
		t.Fatalf("after restart: %s", a.body)
	}
	c.connect()
	frames = c.turn("hello four", nil)
	if m := api.MessageRequests(); !strings.Contains(m[len(m)-1].Model(), "sonnet") {
		t.Fatalf("after restart the model is %q", m[len(m)-1].Model())
	}
	if got := reported(frames); len(got) == 0 || got[0] != "plan" {
		t.Fatalf("after restart the CLI reported %v, want plan", got)
	}
}

// TestRealSettingsRefusedAndInvalid: a mode the running CLI refuses
// answers 409 with its reason and changes nothing; bad input answers 400.
func TestRealSettingsRefusedAndInvalid(t *testing.T) {
	e, _ := realEnv(t)
	c := newChat(e, t.TempDir())
	c.turn("hello", nil)
	a := c.patch(map[string]string{"permissionMode": "bypassPermissions"})
	if a.status != 409 || a.errCode(t) != "conflict" || !strings.Contains(string(a.body), "dangerously-skip-permissions") {
		t.Fatalf("bypass on a CLI not started for it: %d %s", a.status, a.body)
	}
	var w worker.Info
	if e.do("GET", c.path(), nil).json(t, &w); w.PermissionMode != "" {
		t.Fatalf("a refused mode was stored: %+v", w)
	}
	for _, body := range []string{`{"permissionMode":"yolo"}`, `{"permissionMode":""}`, `{}`, `{"model":"a b"}`, `{"mode":"plan"}`, `{"PermissionMode":"plan"}`} {
		if a := c.patch(body); a.status != 400 || a.errCode(t) != "invalid_field" {
			t.Fatalf("%s: %d %s", body, a.status, a.body)
		}
	}
	if a := e.do("PATCH", "/api/sessions/"+c.sid+"/workers/nope", map[string]string{"model": "opus"}); a.status != 404 {
		t.Fatalf("unknown worker: %d %s", a.status, a.body)
	}
	frames := c.turn("hello again", nil)
	if got := reported(frames); len(got) == 0 || got[0] != "default" {
		t.Fatalf("after the refusal the CLI reported %v", got)
	}
}

// TestRealSettingsBeforeStartAndSwitch: settings chosen before the CLI
// runs reach its first request, and a switch to the terminal and back
// keeps them for the new chat worker.
func TestRealSettingsBeforeStartAndSwitch(t *testing.T) {
	e, api := realEnv(t)
	c := newChat(e, t.TempDir())
	if a := c.patch(map[string]string{"permissionMode": "plan", "model": "sonnet"}); a.status != 200 {
		t.Fatalf("patch: %d %s", a.status, a.body)
	}
	c.turn("hello", nil)
	r := api.MessageRequests()[0]
	if !r.InPlanMode() || !strings.Contains(r.Model(), "sonnet") {
		t.Fatalf("the first request: plan %v, model %q", r.InPlanMode(), r.Model())
	}
	var sw struct{ Worker worker.Info }
	switchTo(e, c.sid, "pty-agent", false).json(t, &sw)
	if a := e.do("PATCH", "/api/sessions/"+c.sid+"/workers/"+sw.Worker.ID, map[string]string{"model": "opus"}); a.status != 400 || a.errCode(t) != "invalid_field" {
		t.Fatalf("patch a pty-agent: %d %s", a.status, a.body)
	}
	if a := c.patch(map[string]string{"model": "opus"}); a.status != 409 || a.errCode(t) != "conflict" {
		t.Fatalf("patch the stopped chat: %d %s", a.status, a.body)
	}
	switchTo(e, c.sid, "sdk", false).json(t, &sw)
	if sw.Worker.Kind != worker.KindSDK || sw.Worker.PermissionMode != "plan" || sw.Worker.Model != "sonnet" {
		t.Fatalf("the chat after switching back: %+v", sw.Worker)
	}
}
