package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
	"github.com/agentdesk/agentdesk/worker"
	chatkind "github.com/agentdesk/agentdesk/worker/chat"
)

var (
	fakeCLIOnce sync.Once
	fakeCLIDir  string
	fakeCLI     string
	fakeCLIErr  error
)

// chatKind is the sdk kind as main wires it: the chat engine with the
// Claude driver, running the CLI at path.
func chatKind(path string) worker.Factory {
	return chatkind.Factory(claude.NewDriver(claude.Config{Path: path}))
}

// sdkEnv is a server whose sdk workers run the fake CLI (a built-in echo
// turn per user message).
func sdkEnv(t *testing.T) *env {
	t.Helper()
	fakeCLIOnce.Do(func() {
		if fakeCLIDir, fakeCLIErr = os.MkdirTemp("", "server-fakeclaude-"); fakeCLIErr == nil {
			fakeCLI, fakeCLIErr = fakeclaudetest.Build(fakeCLIDir)
		}
	})
	if fakeCLIErr != nil {
		t.Fatal(fakeCLIErr)
	}
	e := &env{t: t, dir: t.TempDir(), kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(fakeCLI)},
		cfg: worker.Config{ClaudePath: fakeCLI, ChildEnv: os.Environ()}}
	e.start()
	t.Cleanup(e.stop)
	return e
}

// stored reads sdk-message frames (skipping stream events) until a result.
func stored(t *testing.T, c *websocket.Conn) []map[string]any {
	t.Helper()
	var out []map[string]any
	for {
		f := readJSON(t, c, "sdk-message")
		msg := f["message"].(map[string]any)
		if msg["type"] == "stream_event" {
			continue
		}
		out = append(out, f)
		if msg["type"] == "result" {
			return out
		}
	}
}

func uuids(frames []map[string]any) []string {
	var ids []string
	for _, f := range frames {
		ids = append(ids, f["message"].(map[string]any)["uuid"].(string))
	}
	return ids
}

func TestSDKTwoTabsCatchUpAndREST(t *testing.T) {
	e := sdkEnv(t)
	a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()})
	var s worker.Session
	a.json(t, &s)
	if a.status != 201 || len(s.Workers) != 1 || s.Workers[0].Kind != worker.KindSDK || s.ActiveAgentWorkerID == nil {
		t.Fatalf("session with an sdk worker: %d %s", a.status, a.body)
	}
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	path := "/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab1, tab2 := e.dial(path), e.dial(path)
	defer tab1.CloseNow()
	defer tab2.CloseNow()
	for _, c := range []*websocket.Conn{tab1, tab2} {
		if end := readJSON(t, c, "history-end"); end["last"] != nil {
			t.Fatalf("empty worker: %v", end)
		}
	}
	if a := e.do("POST", base+"/input", map[string]string{"content": "hello there"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	got1, got2 := stored(t, tab1), stored(t, tab2)
	ids := uuids(got1)
	if len(ids) < 3 || !equal(ids, uuids(got2)) {
		t.Fatalf("tabs differ:\n%v\n%v", ids, uuids(got2))
	}
	first := got1[0]["message"].(map[string]any)
	if first["type"] != "user" || first["message"].(map[string]any)["content"] != "hello there" {
		t.Fatalf("the user's message does not come first: %v", first)
	}
	for i, f := range got1 {
		if f["seq"] != float64(i+1) {
			t.Fatalf("frame %d has seq %v", i, f["seq"])
		}
	}

	// REST history: everything, then after a cursor, then bad cursors.
	var page struct {
		Messages []map[string]any
		HasMore  bool
	}
	e.do("GET", base+"/messages", nil).json(t, &page)
	if len(page.Messages) != len(ids) || page.HasMore {
		t.Fatalf("messages: %d of %d, hasMore %v", len(page.Messages), len(ids), page.HasMore)
	}
	e.do("GET", base+"/messages?after="+ids[0]+"&limit=1", nil).json(t, &page)
	if len(page.Messages) != 1 || !page.HasMore || page.Messages[0]["message"].(map[string]any)["uuid"] != ids[1] {
		t.Fatalf("page after %s: %+v", ids[0], page)
	}
	// Backwards: the newest page first, then the one before its first uuid.
	e.do("GET", base+"/messages?before=&limit=2", nil).json(t, &page)
	if len(page.Messages) != 2 || !page.HasMore || page.Messages[1]["message"].(map[string]any)["uuid"] != ids[len(ids)-1] {
		t.Fatalf("newest page: %+v", page)
	}
	e.do("GET", base+"/messages?before="+ids[1]+"&limit=5", nil).json(t, &page)
	if len(page.Messages) != 1 || page.HasMore || page.Messages[0]["message"].(map[string]any)["uuid"] != ids[0] {
		t.Fatalf("page before %s: %+v", ids[1], page)
	}
	if a := e.do("GET", base+"/messages?before=nope", nil); a.status != 404 {
		t.Fatalf("unknown before: %d", a.status)
	}
	if a := e.do("GET", base+"/messages?after=nope", nil); a.status != 404 {
		t.Fatalf("unknown after: %d", a.status)
	}
	if a := e.do("GET", base+"/messages?limit=0", nil); a.status != 400 {
		t.Fatalf("limit 0: %d", a.status)
	}

	// A tab that reconnects after the second message gets exactly the rest.
	tab3 := e.dial(path + "?after=" + ids[1])
	defer tab3.CloseNow()
	var replay []string
	for {
		f := readJSON(t, tab3, "")
		if f["type"] == "history-end" {
			if f["last"] != ids[len(ids)-1] {
				t.Fatalf("history-end %v, want %s", f, ids[len(ids)-1])
			}
			break
		}
		if f["type"] == "sdk-message" {
			replay = append(replay, f["message"].(map[string]any)["uuid"].(string))
		}
	}
	if !equal(replay, ids[2:]) {
		t.Fatalf("catch-up %v, want %v", replay, ids[2:])
	}
	// An unknown cursor resets the client, then replays everything.
	tab4 := e.dial(path + "?after=unknown")
	defer tab4.CloseNow()
	if f := readJSON(t, tab4, ""); f["type"] != "reset" {
		t.Fatalf("first frame for an unknown cursor: %v", f)
	}
	// request-history on a live socket gives its own replay and history-end.
	_ = tab1.Write(context.Background(), websocket.MessageText, []byte(`{"type":"request-history","after":"`+ids[len(ids)-2]+`"}`))
	if f := readJSON(t, tab1, "sdk-message"); f["message"].(map[string]any)["uuid"] != ids[len(ids)-1] {
		t.Fatalf("request-history replay: %v", f)
	}
	readJSON(t, tab1, "history-end")
	for _, bad := range []string{`{`, `{"type":"nope"}`, `{"type":"user-message","content":""}`, `{"type":"permission-response","requestId":"x","behavior":"allow"}`} {
		_ = tab2.Write(context.Background(), websocket.MessageText, []byte(bad))
		if f := readJSON(t, tab2, "error"); f["code"] != "invalid_message" {
			t.Fatalf("frame %s: %v", bad, f)
		}
	}
	var cancelled map[string]bool
	if a := e.do("POST", base+"/cancel", nil); a.status != 200 || json.Unmarshal(a.body, &cancelled) != nil || cancelled["cancelled"] {
		t.Fatalf("cancel while idle: %d %s", a.status, a.body)
	}
}

func TestSDKSurvivesRestart(t *testing.T) {
	e := sdkEnv(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	e.do("POST", base+"/input", map[string]string{"content": "before restart"})
	ids := uuids(stored(t, tab))
	tab.CloseNow()
	e.restart()
	var page struct{ Messages []map[string]any }
	e.do("GET", base+"/messages", nil).json(t, &page)
	if len(page.Messages) != len(ids) {
		t.Fatalf("after restart %d messages, want %d", len(page.Messages), len(ids))
	}
	tab = e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID + "?after=" + ids[len(ids)-1])
	defer tab.CloseNow()
	if end := readJSON(t, tab, "history-end"); end["last"] != ids[len(ids)-1] {
		t.Fatalf("history-end after restart: %v", end)
	}
	if a := e.do("POST", base+"/input", map[string]string{"content": "after restart"}); a.status != 202 {
		t.Fatalf("input after restart: %d %s", a.status, a.body)
	}
	more := stored(t, tab)
	if more[0]["seq"] != float64(len(ids)+1) {
		t.Fatalf("sequence does not continue: %v", more[0]["seq"])
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSDKCLIExitsAtStart(t *testing.T) {
	e := sdkEnv(t)
	e.stop()
	e.cfg.ChildEnv = append(os.Environ(), "FAKECLAUDE_EXIT_AT_START=3")
	e.start()
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	a := e.do("POST", base+"/input", map[string]string{"content": "hi"})
	if a.status != http.StatusBadGateway || a.errCode(t) != "claude_exited" {
		t.Fatalf("input to a CLI that exits at start: %d %s", a.status, a.body)
	}
	var w worker.Info
	e.do("GET", base, nil).json(t, &w)
	if w.Status != worker.StatusError || w.Error == nil {
		t.Fatalf("worker after a failed start: %+v", w)
	}
}
