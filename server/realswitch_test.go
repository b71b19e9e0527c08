package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
)

// TestRealSwitchRoundTrip moves one conversation of the real CLI from the
// chat to the terminal UI and back: Claude keeps the context both ways and
// the chat shows the turn typed in the terminal.
func TestRealSwitchRoundTrip(t *testing.T) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(claudePath), worker.KindPTYAgent: ptyagent.New},
		cfg:   worker.Config{ClaudePath: claudePath, ChildEnv: api.ClaudeEnv(t.TempDir())}}
	e.start()
	t.Cleanup(e.stop)

	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "sdk"}).json(t, &s)
	chat := s.Workers[0]
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + chat.ID)
	readJSON(t, tab, "history-end")
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+chat.ID+"/input", map[string]string{"content": "hello from chat"}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	stored(t, tab)
	tab.CloseNow()

	// To the terminal: the PTY's request carries the chat turn.
	var sw struct{ Worker worker.Info }
	switchTo(e, s.ID, "pty-agent", false).json(t, &sw)
	if sw.Worker.Kind != worker.KindPTYAgent {
		t.Fatalf("switch to pty-agent: %+v", sw)
	}
	_, rt, err := e.mgr.Runtime(s.ID, sw.Worker.ID)
	if err != nil {
		t.Fatal(err)
	}
	pty := rt.(*ptyagent.Runtime)
	waitScreen(t, pty, func(sc string) bool { return strings.Contains(sc, "\n❯") && pty.Activity() == worker.ActivityIdle })
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/input", map[string]string{"content": "from the terminal"}); a.status != 202 {
		t.Fatalf("pty input: %d %s", a.status, a.body)
	}
	waitScreen(t, pty, func(sc string) bool {
		return strings.Contains(sc, "Echo: from the terminal") && pty.Activity() == worker.ActivityIdle
	})
	if last := lastRequest(t, api); !strings.Contains(last, "hello from chat") {
		t.Fatalf("the terminal's request lacks the chat turn: %s", last)
	}

	// Back to the chat: a new sdk worker shows the terminal turn as history
	// and continues with the whole context.
	switchTo(e, s.ID, "sdk", false).json(t, &sw)
	if sw.Worker.Kind != worker.KindSDK || sw.Worker.ID == chat.ID {
		t.Fatalf("switch back: %+v", sw)
	}
	if got, _ := e.mgr.Worker(s.ID, chat.ID); got.Status != worker.StatusStopped {
		t.Fatalf("the first chat worker is %s, want stopped", got.Status)
	}
	tab = e.dial("/ws/sessions/" + s.ID + "/workers/" + sw.Worker.ID)
	defer tab.CloseNow()
	// The import runs in the background: its frames may come in the replay
	// or live after it, and end with the import marker.
	var history strings.Builder
	for {
		f := readJSON(t, tab, "")
		b, _ := json.Marshal(f)
		history.Write(b)
		if strings.Contains(string(b), `"subtype":"agentdesk_imported"`) {
			break
		}
	}
	h := history.String()
	if !strings.Contains(h, "from the terminal") || !strings.Contains(h, `"agentdeskSource":"terminal"`) || !strings.Contains(h, "hello from chat") {
		t.Fatalf("the new chat does not show the whole conversation: %s", h)
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/input", map[string]string{"content": "after switch"}); a.status != 202 {
		t.Fatalf("input after switch: %d %s", a.status, a.body)
	}
	stored(t, tab)
	if last := lastRequest(t, api); !strings.Contains(last, "hello from chat") || !strings.Contains(last, "from the terminal") {
		t.Fatalf("the chat's request after switching back lacks context: %s", last)
	}
}

func waitScreen(t *testing.T, rt *ptyagent.Runtime, ok func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !ok(rt.Screen()) {
		if time.Now().After(deadline) {
			t.Fatalf("screen never matched:\n%s", rt.Screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lastRequest is the message list of the newest streamed API request.
func lastRequest(t *testing.T, api *fakeapi.Server) string {
	t.Helper()
	reqs := api.MessageRequests()
	if len(reqs) == 0 {
		t.Fatal("the fake API got no request")
	}
	b, _ := json.Marshal(reqs[len(reqs)-1].Messages())
	return string(b)
}
