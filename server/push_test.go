package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/push"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/attention"
)

func pushKeyOf(t *testing.T, e *env) string {
	t.Helper()
	var k struct{ PublicKey string }
	a := e.do("GET", "/api/push/key", nil)
	if a.status != http.StatusOK {
		t.Fatalf("GET /api/push/key: %d %s", a.status, a.body)
	}
	a.json(t, &k)
	if raw, err := base64.RawURLEncoding.DecodeString(k.PublicKey); err != nil || len(raw) != 65 || raw[0] != 4 {
		t.Fatalf("publicKey %q is not an uncompressed P-256 point", k.PublicKey)
	}
	return k.PublicKey
}

func subscribe(t *testing.T, e *env, sub push.Subscription) {
	t.Helper()
	if a := e.do("POST", "/api/push/subscriptions", sub); a.status != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", a.status, a.body)
	}
}

// The keys are made once (0600) and kept across a restart; subscriptions
// are validated, stored durably, replaced by endpoint and removed.
func TestPushKeysAndSubscriptions(t *testing.T) {
	e := newEnv(t, nil)
	key := pushKeyOf(t, e)
	fi, err := os.Stat(filepath.Join(e.dir, "vapid.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("vapid.json: %v %v", fi, err)
	}
	good := newSubscriber(t, "https://push.example.test/send/abc").sub
	bad := map[string]any{
		"http endpoint":  map[string]any{"endpoint": "http://push.example.test/x", "keys": good.Keys},
		"no endpoint":    map[string]any{"endpoint": "", "keys": good.Keys},
		"short p256dh":   map[string]any{"endpoint": good.Endpoint, "keys": map[string]string{"p256dh": good.Keys.P256dh[:40], "auth": good.Keys.Auth}},
		"not a point":    map[string]any{"endpoint": good.Endpoint, "keys": map[string]string{"p256dh": "BA" + good.Keys.P256dh[2:60] + "AAAAAAAAAAAAAAAAAAAAAAAAA", "auth": good.Keys.Auth}},
		"long auth":      map[string]any{"endpoint": good.Endpoint, "keys": map[string]string{"p256dh": good.Keys.P256dh, "auth": good.Keys.P256dh}},
		"unknown fields": map[string]any{"endpoint": good.Endpoint, "keys": good.Keys, "extra": 1},
	}
	for name, body := range bad {
		a := e.do("POST", "/api/push/subscriptions", body)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" {
			t.Errorf("%s: %d %s", name, a.status, a.body)
		}
	}
	if n := len(e.push.Subscriptions()); n != 0 {
		t.Fatalf("bad subscriptions stored: %d", n)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "push-subscriptions.json")); !os.IsNotExist(err) {
		t.Fatalf("a file was written for bad subscriptions: %v", err)
	}
	subscribe(t, e, good)
	subscribe(t, e, good) // the same endpoint again replaces it
	if fi, err := os.Stat(filepath.Join(e.dir, "push-subscriptions.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("push-subscriptions.json: %v %v", fi, err)
	}
	loop := newSubscriber(t, "http://127.0.0.1:9/push").sub
	subscribe(t, e, loop)
	if a := e.do("DELETE", "/api/push/subscriptions", map[string]string{"endpoint": "https://nope.test/"}); a.status != 404 || a.errCode(t) != "not_found" {
		t.Fatalf("delete unknown: %d %s", a.status, a.body)
	}

	e.restart()
	if got := pushKeyOf(t, e); got != key {
		t.Fatalf("key changed across a restart: %s, was %s", got, key)
	}
	subs := e.push.Subscriptions()
	if len(subs) != 2 || subs[0].Endpoint != good.Endpoint || subs[1].Keys != loop.Keys {
		t.Fatalf("after restart: %+v", subs)
	}
	if a := e.do("DELETE", "/api/push/subscriptions", map[string]string{"endpoint": good.Endpoint}); a.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", a.status, a.body)
	}
	e.restart()
	if subs := e.push.Subscriptions(); len(subs) != 1 || subs[0].Endpoint != loop.Endpoint {
		t.Fatalf("after delete and restart: %+v", subs)
	}
}

type pushMsg struct {
	Title, Body, URL, Tag, SessionID, WorkerID, Kind, RequestID string
	Actions                                                     []struct{ Action, Title string }
}

func decode(t *testing.T, s subscriber, p pushed) pushMsg {
	t.Helper()
	var m pushMsg
	if err := json.Unmarshal(s.decrypt(t, p), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// askingWithPush is a server whose fake CLI asks a permission, one
// subscription on a fake push service, and a new session.
func askingWithPush(t *testing.T) (*env, *fakePushService, subscriber, worker.Session) {
	t.Helper()
	e := scriptEnv(t, askScript)
	fake := newFakePushService(t)
	sub := newSubscriber(t, fake.URL+"/push/one")
	subscribe(t, e, sub.sub)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	return e, fake, sub, s
}

// A real waiting permission, with no tab viewing its session, is pushed
// encrypted for the subscription and signed with the server's VAPID key;
// the turn's end after the answer is pushed too.
func TestPushPermissionDecrypted(t *testing.T) {
	e, fake, sub, s := askingWithPush(t)
	wid := s.Workers[0].ID
	base := "/api/sessions/" + s.ID + "/workers/" + wid
	if a := e.do("POST", base+"/input", map[string]string{"content": "go"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	p := fake.next(t)
	checkVAPID(t, p, pushKeyOf(t, e), fake.URL)
	if p.header.Get("TTL") == "" || len(p.header.Get("Topic")) != 32 || p.header.Get("Urgency") != "high" {
		t.Fatalf("headers: %v", p.header)
	}
	m := decode(t, sub, p)
	if m.Kind != "permission" || m.SessionID != s.ID || m.WorkerID != wid || m.Body != "Bash: touch x" ||
		m.URL != "/s/"+s.ID+"/w/"+wid || m.Tag != "agentdesk-"+s.ID+"-"+wid || m.RequestID == "" ||
		len(m.Actions) != 2 || m.Actions[0].Action != "allow" || m.Actions[1].Action != "deny" {
		t.Fatalf("payload: %+v", m)
	}
	if a := e.do("POST", base+"/permissions/"+m.RequestID, map[string]string{"behavior": "allow"}); a.status != http.StatusNoContent {
		t.Fatalf("allow: %d %s", a.status, a.body)
	}
	if m := decode(t, sub, fake.next(t)); m.Kind != "finished" || m.Actions != nil || m.WorkerID != wid {
		t.Fatalf("second push: %+v", m)
	}
}

// viewing sends a viewing frame on /ws/app and waits until the server has
// taken it: the error answer to a bogus frame sent after it comes back
// only once the frames before it were handled.
func viewing(t *testing.T, app *websocket.Conn, sid any) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"type": "viewing", "sessionId": sid})
	for _, f := range [][]byte{b, []byte(`{"type":"bogus"}`)} {
		if err := app.Write(context.Background(), websocket.MessageText, f); err != nil {
			t.Fatal(err)
		}
	}
	readJSON(t, app, "error")
}

// No push goes out for a session a tab views: the permission asked while
// viewed is not pushed; the turn's end after the tab went away is, and it
// is the first push the service gets (pushes leave in order).
func TestPushNotWhenViewed(t *testing.T) {
	e, fake, sub, s := askingWithPush(t)
	wid := s.Workers[0].ID
	app := e.dial("/ws/app")
	defer app.CloseNow()
	viewing(t, app, s.ID)
	base := "/api/sessions/" + s.ID + "/workers/" + wid
	if a := e.do("POST", base+"/input", map[string]string{"content": "go"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	items := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "permission" })
	viewing(t, app, nil) // the tab is hidden now
	if a := e.do("POST", base+"/permissions/"+items[0].Request.RequestID, map[string]string{"behavior": "allow"}); a.status != http.StatusNoContent {
		t.Fatalf("allow: %d %s", a.status, a.body)
	}
	if m := decode(t, sub, fake.next(t)); m.Kind != "finished" {
		t.Fatalf("first push: %+v (the permission was pushed while viewed)", m)
	}
}

// A push service answering 410 Gone deletes the subscription, on disk too.
func TestPushGoneDeletesSubscription(t *testing.T) {
	e := newEnv(t, nil)
	fake := newFakePushService(t)
	fake.status.Store(http.StatusGone)
	gone := newSubscriber(t, fake.URL+"/push/gone")
	subscribe(t, e, gone.sub)
	// A long title is clipped: the payload stays under 3 KB.
	long := strings.Repeat("<é>", 1000)
	e.push.Notify([]attention.Item{{SessionID: "s1", SessionTitle: long, WorkerID: "w1", Kind: attention.KindError, Title: long}})
	plain := gone.decrypt(t, fake.next(t))
	var m pushMsg
	if err := json.Unmarshal(plain, &m); err != nil || m.Kind != "error" || m.URL != "/s/s1/w/w1" || len(plain) >= 3<<10 {
		t.Fatalf("payload (%d bytes): %+v %v", len(plain), m, err)
	}
	// The sender deletes it after the answer: wait for that (the deadline
	// only guards a failure).
	for deadline := time.Now().Add(time.Minute); len(e.push.Subscriptions()) != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the subscription is still stored after 410 Gone")
		}
	}
	e.restart()
	if n := len(e.push.Subscriptions()); n != 0 {
		t.Fatalf("after restart: %d subscriptions", n)
	}
}
