package server

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/coder/websocket"
)

// hostileSeeds are inputs every JSON entry point must survive: nesting far
// past encoding/json's depth limit, invalid UTF-8, numbers no type holds.
func hostileSeeds() []string {
	return []string{
		strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000),
		`{"a":` + strings.Repeat(`{"a":`, 100_000) + `1` + strings.Repeat("}", 100_001),
		"{\"type\":\"user-message\",\"content\":\"\xff\xfe\"}",
		"\xff\xfe\xfd",
		`{"title":1e999999}`,
		`{"cwd":` + strings.Repeat("9", 5000) + `}`,
		`{"type":1e400}`,
		``, `null`, `[]`, `{}`, `{"type":"nope"}`, `{} {}`,
	}
}

// FuzzCreateSessionBody posts the body to POST /api/sessions: the server
// never answers 5xx, every 4xx is a JSON error with a code, a refused body
// creates nothing, and the server still answers afterwards.
func FuzzCreateSessionBody(f *testing.F) {
	for _, s := range hostileSeeds() {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"cwd":"/","agent":"none"}`))
	f.Add([]byte(`{"cwd":"/","agent":"none","title":"\u0000\ud800"}`))
	f.Add([]byte(`{"cwd":"relative","agent":"none"}`))
	f.Add([]byte(`{"CWD":"/","agent":"none"}`))
	f.Add([]byte(`{"repo":"/nonexistent","branch":"../x","worktree":true}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		e := newEnv(t, map[worker.Kind]worker.Factory{})
		a := e.do("POST", "/api/sessions", body)
		n := len(e.mgr.Sessions())
		switch {
		case a.status == http.StatusCreated:
			if n != 1 {
				t.Fatalf("201 but %d sessions", n)
			}
		case a.status >= 400 && a.status < 500:
			if a.errCode(t) == "" {
				t.Fatalf("%d without a code: %s", a.status, a.body)
			}
			if n != 0 {
				t.Fatalf("refused body (%d %s) created %d sessions", a.status, a.body, n)
			}
		default:
			t.Fatalf("status %d: %s", a.status, a.body)
		}
		if a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none"}); a.status != http.StatusCreated {
			t.Fatalf("valid create after the fuzzed body: %d %s", a.status, a.body)
		}
	})
}

// FuzzWorkerSocketFrame hands the bytes to the sdk (fake CLI) and git-diff
// runtimes as a socket frame: nil or an error, never a panic, and a valid
// frame still works afterwards.
func FuzzWorkerSocketFrame(f *testing.F) {
	for _, s := range hostileSeeds() {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"type":"request-history","after":"\u0000"}`))
	f.Add([]byte(`{"type":"permission-response","requestId":"x","behavior":"deny","updatedInput":[[[[]]]]}`))
	f.Add([]byte(`{"type":"set-base","base":"--output=/tmp/x"}`))
	f.Add([]byte(`{"type":"set-base","base":"HEAD~999999999999999999999"}`))
	f.Add([]byte(`{"type":"refresh"}`))
	f.Add([]byte(`{"type":"cancel"}`))
	f.Add([]byte(`{"type":"user-message"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sdkRT, diffRT := fuzzWorkers(t)
		valid := map[worker.Runtime]string{sdkRT: `{"type":"request-history"}`, diffRT: `{"type":"refresh"}`}
		for rt, ok := range valid {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			st, _ := rt.HandleClient(ctx, data) // any error is fine; a panic fails
			st.Close()
			st, err := rt.HandleClient(ctx, []byte(ok))
			st.Close()
			cancel()
			if err != nil {
				t.Fatalf("valid frame %s after the fuzzed one: %v", ok, err)
			}
		}
	})
}

// fuzzWorkers starts a server with a session in a git repo running an sdk
// worker (the fake CLI) and a git-diff worker, and returns their runtimes.
func fuzzWorkers(t *testing.T) (sdkRT, diffRT worker.Runtime) {
	t.Helper()
	e := sdkEnv(t) // builds the fake CLI once
	e.stop()
	e.kinds = map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(e.cfg.ClaudePath), worker.KindGitDiff: gitdiff.New}
	e.cfg.ChildEnv = os.Environ()
	e.start()
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": gitRepo(t)}).json(t, &s)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, w := range s.Workers {
		_, rt, err := e.mgr.WaitRuntime(ctx, s.ID, w.ID)
		if err != nil {
			t.Fatalf("runtime of %s: %v", w.Kind, err)
		}
		switch w.Kind {
		case worker.KindSDK:
			sdkRT = rt
		case worker.KindGitDiff:
			diffRT = rt
		}
	}
	if sdkRT == nil || diffRT == nil {
		t.Fatalf("session in a repo without an sdk and a git-diff worker: %+v", s.Workers)
	}
	return sdkRT, diffRT
}

// TestSDKSocketSurvivesHostileFrames sends text frames that are not valid
// UTF-8 or nest past the JSON depth limit: each gets an error frame and the
// socket keeps working.
func TestSDKSocketSurvivesHostileFrames(t *testing.T) {
	e := sdkEnv(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	c := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer c.CloseNow()
	readJSON(t, c, "history-end")
	seeds := hostileSeeds()
	for _, bad := range []string{seeds[0], seeds[1], seeds[3], seeds[6], "{\"type\":\"\xff\"}"} {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(bad)); err != nil {
			t.Fatalf("write %.20q: %v", bad, err)
		}
		if f := readJSON(t, c, "error"); f["code"] != "invalid_message" {
			t.Fatalf("frame %.20q: %v", bad, f)
		}
	}
	_ = c.Write(context.Background(), websocket.MessageText, []byte(`{"type":"request-history"}`))
	readJSON(t, c, "history-end")
}
