package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/toolbridge"
	"github.com/agentdesk/agentdesk/worker"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type sessions map[string]string // id → title

func (s sessions) Session(id string) (worker.Session, error) {
	if t, ok := s[id]; ok {
		return worker.Session{ID: id, Title: t}, nil
	}
	return worker.Session{}, fmt.Errorf("session %q: %w", id, worker.ErrNotFound)
}

type pusher struct {
	mu   sync.Mutex
	subs int
	sent []string
}

func (p *pusher) Message(sid, title, body string) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.subs > 0 {
		p.sent = append(p.sent, sid+"|"+title+"|"+body)
	}
	return p.subs, nil
}

func call(t *testing.T, s *Service, sid, tool, input string) toolbridge.Result {
	return s.Registry().Call(t.Context(), toolbridge.CallRequest{Scope: sid, Tool: tool, Input: json.RawMessage(input)})
}

func TestNotifyPushesWhenNoTabServesIt(t *testing.T) {
	push := &pusher{subs: 2}
	s := New(Options{Sessions: sessions{"s1": "Fix the build"}, Push: push})
	s.Start()
	defer s.Close()
	res := call(t, s, "s1", "notify", `{"message":"tests pass"}`)
	if res.IsError || !strings.Contains(res.Content[0].Text, "pushed to 2") {
		t.Errorf("got %+v", res)
	}
	if strings.Join(push.sent, ";") != "s1|Fix the build|tests pass" {
		t.Errorf("pushed %v", push.sent)
	}
	if res := call(t, s, "s1", "notify", `{"title":"x"}`); !res.IsError || !strings.Contains(res.Content[0].Text, "needs") {
		t.Errorf("no message: %+v", res)
	}
	push.mu.Lock()
	push.subs = 0
	push.mu.Unlock()
	if res := call(t, s, "s1", "notify", `{"message":"m"}`); !res.IsError || !strings.Contains(res.Content[0].Text, "no device subscribed") {
		t.Errorf("no subscriber: %+v", res)
	}
}

func TestATabServesNotifyBeforeTheServer(t *testing.T) {
	s := New(Options{Sessions: sessions{"s1": ""}, Push: &pusher{subs: 1}})
	s.Start()
	defer s.Close()
	tab := s.Connect()
	defer tab.Close()
	tab.Handle([]byte(`{"type":"register","provider":"agentdesk tab","sessionId":"*","tools":[{"name":"notify"}]}`))
	<-tab.Frames() // registered
	if got := s.Registry().Provider("s1", "notify"); got != "agentdesk tab" {
		t.Errorf("notify goes to %q", got)
	}
	tab.Close()
	if got := s.Registry().Provider("s1", "notify"); got != BuiltinProvider {
		t.Errorf("after the tab closed notify goes to %q", got)
	}
}

func TestRegisterForAnUnknownSession(t *testing.T) {
	s := New(Options{Sessions: sessions{"s1": ""}})
	p := s.Connect()
	defer p.Close()
	p.Handle([]byte(`{"type":"register","sessionId":"nope","tools":[{"name":"x"}]}`))
	var f map[string]any
	if err := json.Unmarshal(<-p.Frames(), &f); err != nil {
		t.Fatal(err)
	}
	if f["type"] != "error" || !strings.Contains(f["message"].(string), "no session nope exists") {
		t.Errorf("got %v", f)
	}
	if _, err := s.Tools("nope"); err == nil {
		t.Error("tools of an unknown session")
	}
	list, err := s.Tools("s1")
	if err != nil || len(list) != 0 {
		t.Errorf("tools of s1: %v %v", list, err)
	}
}
