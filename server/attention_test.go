package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/worker"
)

// askScript is a fake CLI turn that asks to run a tool, waits for the
// answer, then ends.
const askScript = `{"type":"system","subtype":"init","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"touch x"}}]},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"control_request","request_id":"req-{{UUID}}","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch x"},"description":"Run touch x","tool_use_id":"toolu_1"}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
`

// scriptEnv is sdkEnv whose fake CLI plays script for every turn.
func scriptEnv(t *testing.T, script string) *env {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.jsonl")
	if err := os.WriteFile(p, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	return fakeEnv(t, worker.Config{}, "FAKECLAUDE_SCRIPT="+p)
}

// fakeEnv is sdkEnv with cfg's StallAfter and extra environment.
func fakeEnv(t *testing.T, cfg worker.Config, extra ...string) *env {
	t.Helper()
	sdkEnv(t) // builds the fake CLI once; this env is discarded
	cfg.ClaudePath, cfg.ChildEnv = fakeCLI, append(os.Environ(), extra...)
	e := &env{t: t, dir: t.TempDir(), kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(fakeCLI)}, cfg: cfg}
	e.start()
	t.Cleanup(e.stop)
	return e
}

type attnItem struct {
	SessionID, WorkerID, Kind, Title, Since string
	Request                                 struct{ RequestID, ToolName string }
}

// nextAttention reads /ws/app until an attention frame that ok accepts.
func nextAttention(t *testing.T, c *websocket.Conn, ok func([]attnItem) bool) []attnItem {
	t.Helper()
	for i := 0; i < 1000; i++ {
		f := readJSON(t, c, "attention")
		var items []attnItem
		for _, raw := range f["items"].([]any) {
			m := raw.(map[string]any)
			it := attnItem{SessionID: m["sessionId"].(string), WorkerID: m["workerId"].(string),
				Kind: m["kind"].(string), Title: m["title"].(string), Since: m["since"].(string)}
			if r, ok := m["request"].(map[string]any); ok {
				it.Request.RequestID, it.Request.ToolName = r["requestId"].(string), r["toolName"].(string)
			}
			items = append(items, it)
		}
		if ok(items) {
			return items
		}
	}
	t.Fatal("no matching attention frame")
	return nil
}

func kindsOf(items []attnItem) string {
	var ks []string
	for _, it := range items {
		ks = append(ks, it.Kind)
	}
	return strings.Join(ks, ",")
}

func getAttention(t *testing.T, e *env) []attnItem {
	t.Helper()
	var v struct{ Items []attnItem }
	a := e.do("GET", "/api/attention", nil)
	if a.status != http.StatusOK {
		t.Fatalf("GET /api/attention: %d %s", a.status, a.body)
	}
	a.json(t, &v)
	return v.Items
}

// A permission request shows in the list, is answered in place over REST,
// the finished turn stays listed across a restart until the session is
// seen.
func TestAttentionPermissionFinishedSeen(t *testing.T) {
	e := scriptEnv(t, askScript)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	wid := s.Workers[0].ID
	app := e.dial("/ws/app")
	defer app.CloseNow()
	readJSON(t, app, "sessions-sync")
	if f := readJSON(t, app, ""); f["type"] != "attention" || len(f["items"].([]any)) != 0 {
		t.Fatalf("second /ws/app frame: %v", f)
	}
	base := "/api/sessions/" + s.ID + "/workers/" + wid
	if a := e.do("POST", base+"/input", map[string]string{"content": "go"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	items := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "permission" })
	it := items[0]
	if it.SessionID != s.ID || it.WorkerID != wid || it.Title != "Bash: touch x" || it.Request.ToolName != "Bash" || it.Since == "" {
		t.Fatalf("permission item: %+v", it)
	}
	if got := getAttention(t, e); len(got) != 1 || got[0].Request.RequestID != it.Request.RequestID {
		t.Fatalf("GET /api/attention: %+v", got)
	}

	// Bad answers change nothing.
	if a := e.do("POST", base+"/permissions/"+it.Request.RequestID, map[string]string{"behavior": "maybe"}); a.status != 400 || a.errCode(t) != "invalid_field" {
		t.Fatalf("bad behavior: %d %s", a.status, a.body)
	}
	if a := e.do("POST", base+"/permissions/nope", map[string]string{"behavior": "allow"}); a.status != 404 || a.errCode(t) != "not_found" {
		t.Fatalf("unknown request: %d %s", a.status, a.body)
	}
	if got := getAttention(t, e); kindsOf(got) != "permission" {
		t.Fatalf("after bad answers: %+v", got)
	}

	if a := e.do("POST", base+"/permissions/"+it.Request.RequestID, map[string]string{"behavior": "allow"}); a.status != http.StatusNoContent {
		t.Fatalf("allow: %d %s", a.status, a.body)
	}
	done := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "finished" })
	app.CloseNow()

	e.restart()
	after := getAttention(t, e)
	if kindsOf(after) != "finished" || after[0].Since != done[0].Since || after[0].WorkerID != wid {
		t.Fatalf("after restart: %+v, before %+v", after, done)
	}
	if a := e.do("POST", "/api/sessions/nope/seen", nil); a.status != 404 {
		t.Fatalf("seen of an unknown session: %d %s", a.status, a.body)
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/seen", nil); a.status != http.StatusNoContent {
		t.Fatalf("seen: %d %s", a.status, a.body)
	}
	if got := getAttention(t, e); len(got) != 0 {
		t.Fatalf("after seen: %+v", got)
	}
	e.restart()
	if got := getAttention(t, e); len(got) != 0 {
		t.Fatalf("seen mark lost in a restart: %+v", got)
	}
}
