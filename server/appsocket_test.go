package server

import (
	"context"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/wire"
)

func TestAppSocketLifecycle(t *testing.T) {
	e := newEnv(t, nil)
	before := e.createSession(t.TempDir())
	c := e.dial("/ws/app")
	defer c.CloseNow()
	sync := readJSON(t, c, "sessions-sync")
	if ss := sync["sessions"].([]any); len(ss) != 1 || ss[0].(map[string]any)["id"] != before.ID {
		t.Fatalf("sessions-sync: %v", sync)
	}
	s := e.createSession(t.TempDir())
	if got := readJSON(t, c, "session-created"); got["session"].(map[string]any)["id"] != s.ID {
		t.Fatalf("session-created: %v", got)
	}
	e.do("PATCH", "/api/sessions/"+s.ID, map[string]string{"title": "t"})
	if got := readJSON(t, c, "session-updated"); got["session"].(map[string]any)["title"] != "t" {
		t.Fatalf("session-updated: %v", got)
	}
	// An unknown frame gets an error and the socket stays open.
	if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"type":"bogus"}`)); err != nil {
		t.Fatal(err)
	}
	if got := readJSON(t, c, "error"); got["code"] != "invalid_message" {
		t.Fatalf("error frame: %v", got)
	}
	e.do("DELETE", "/api/sessions/"+s.ID, nil)
	if got := readJSON(t, c, "session-deleted"); got["sessionId"] != s.ID {
		t.Fatalf("session-deleted: %v", got)
	}
}

func TestAppSocketOversizedFrame(t *testing.T) {
	e := newEnv(t, nil)
	c := e.dial("/ws/app")
	defer c.CloseNow()
	readJSON(t, c, "sessions-sync")
	readJSON(t, c, "attention") // the inbox's list follows the sync
	big := make([]byte, wire.MaxClientFrame+1)
	_ = c.Write(context.Background(), websocket.MessageText, big)
	_, _, err := c.Read(context.Background())
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("oversized frame: %v, want close 1009", err)
	}
}
