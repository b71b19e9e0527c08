package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
)

func sendJSON(t *testing.T, c *websocket.Conn, v string) {
	t.Helper()
	if err := c.Write(context.Background(), websocket.MessageText, []byte(v)); err != nil {
		t.Fatal(err)
	}
}

// TestToolsSocket: a program with the token connects to /ws/tools,
// registers a tool for a session, answers the call the agent makes (here
// the driver's side, the registry, makes it) with text and an image, and
// the session's tool list names it.
func TestToolsSocket(t *testing.T) {
	e := newEnv(t, nil)
	sess := e.createSession(t.TempDir())
	c := e.dial("/ws/tools")
	defer c.CloseNow()
	sendJSON(t, c, `{"type":"register","provider":"grid page","sessionId":"`+sess.ID+`","tools":[{"name":"shot","description":"A screenshot.","inputSchema":{"type":"object"}}]}`)
	if f := readJSON(t, c, ""); f["type"] != "registered" {
		t.Fatalf("got %v", f)
	}
	var list struct{ Tools []toolbridge.Listed }
	e.do("GET", "/api/sessions/"+sess.ID+"/tools", nil).json(t, &list)
	var names []string
	for _, l := range list.Tools {
		names = append(names, l.Name+"@"+l.Provider)
	}
	if got := strings.Join(names, ","); got != "notify@agentdesk,shot@grid page" {
		t.Errorf("tools: %s", got)
	}

	done := make(chan toolbridge.Result, 1)
	go func() {
		done <- e.tools.Registry().Call(context.Background(), toolbridge.CallRequest{Scope: sess.ID, Tool: "shot", Input: json.RawMessage(`{"zoom":2}`)})
	}()
	call := readJSON(t, c, "call")
	if call["tool"] != "shot" || call["sessionId"] != sess.ID || call["input"].(map[string]any)["zoom"] != 2.0 {
		t.Errorf("call %v", call)
	}
	sendJSON(t, c, `{"type":"tool-result","callId":"`+call["callId"].(string)+`","content":[{"type":"text","text":"here"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`)
	res := <-done
	if res.IsError || len(res.Content) != 2 || res.Content[1].MimeType != "image/png" {
		t.Errorf("result %+v", res)
	}

	// The socket closes: the tool goes, and a call then fails at once.
	w := e.tools.Registry().Watch(sess.ID)
	defer w.Close()
	c.Close(websocket.StatusNormalClosure, "")
	for e.tools.Registry().Provider(sess.ID, "shot") != "" {
		<-w.Changed()
	}
	if res := e.tools.Registry().Call(context.Background(), toolbridge.CallRequest{Scope: sess.ID, Tool: "shot"}); !res.IsError {
		t.Errorf("a call after the provider left: %+v", res)
	}
}

func TestToolsSocketGuards(t *testing.T) {
	e := newEnv(t, nil)
	if _, err := e.tryDial("/ws/tools", "Authorization", ""); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("without the token: %v", err)
	}
	if _, err := e.tryDial("/ws/tools", "Origin", "https://evil.example"); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("from another origin: %v", err)
	}
	if a := e.do("GET", "/api/sessions/nope/tools", nil); a.status != http.StatusNotFound {
		t.Errorf("tools of an unknown session: %d %s", a.status, a.body)
	}
	c := e.dial("/ws/tools")
	defer c.CloseNow()
	sendJSON(t, c, `{"type":"register","sessionId":"nope","tools":[{"name":"x"}]}`)
	if f := readJSON(t, c, ""); f["type"] != "error" || !strings.Contains(f["message"].(string), "no session nope exists") {
		t.Errorf("register for an unknown session: %v", f)
	}
}

// TestNotifyToolPushes: with no tab of agentdesk serving notify, the
// agent's notify call reaches the person's subscribed browser as a push.
func TestNotifyToolPushes(t *testing.T) {
	e := newEnv(t, nil)
	fake := newFakePushService(t)
	sub := newSubscriber(t, fake.URL+"/push/one")
	subscribe(t, e, sub.sub)
	sess := e.createSession(t.TempDir())
	res := e.tools.Registry().Call(context.Background(), toolbridge.CallRequest{Scope: sess.ID, Tool: "notify", Input: json.RawMessage(`{"message":"the build is green"}`)})
	if res.IsError || !strings.Contains(res.Content[0].Text, "pushed to 1") {
		t.Fatalf("notify: %+v", res)
	}
	m := decode(t, sub, fake.next(t))
	if m.Kind != "message" || m.SessionID != sess.ID || m.Body != "the build is green" || m.Title != sess.Title || m.URL != "/s/"+sess.ID {
		t.Errorf("payload %+v", m)
	}
}
