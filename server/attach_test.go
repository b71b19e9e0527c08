package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

var redPNG = func() []byte {
	b, err := os.ReadFile("../internal/attach/testdata/red.png")
	if err != nil {
		panic(err)
	}
	return b
}()

// sdkSession creates a session with an sdk worker.
func sdkSession(e *env) worker.Session {
	e.t.Helper()
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": e.t.TempDir()}).json(e.t, &s)
	if len(s.Workers) != 1 {
		e.t.Fatalf("session: %+v", s)
	}
	return s
}

func att(name, mt string, data []byte) map[string]string {
	return map[string]string{"name": name, "mediaType": mt, "data": base64.StdEncoding.EncodeToString(data)}
}

// userAttachments returns the attachments of the first stored user frame.
func userAttachments(t *testing.T, frames []map[string]any) []any {
	t.Helper()
	msg := frames[0]["message"].(map[string]any)
	if msg["type"] != "user" {
		t.Fatalf("first frame: %v", msg)
	}
	list, _ := msg["attachments"].([]any)
	return list
}

// TestInputWithAttachments: POST …/input takes attachments; the stored
// message and the REST page carry references, never the bytes; the
// attachment route serves them with safe headers.
func TestInputWithAttachments(t *testing.T) {
	e := sdkEnv(t)
	s := sdkSession(e)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	body := map[string]any{"content": "see", "attachments": []any{
		att("red.png", "image/png", redPNG), att(`we"ird name.txt`, "text/plain", []byte("hello\n")),
		att("x.svg", "image/svg+xml", []byte("<svg onload=alert(1)></svg>")),
	}}
	if a := e.do("POST", base+"/input", body); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	refs := userAttachments(t, stored(t, tab))
	if len(refs) != 3 {
		t.Fatalf("attachments: %v", refs)
	}
	img := refs[0].(map[string]any)
	if img["name"] != "red.png" || img["mediaType"] != "image/png" || img["size"] != float64(len(redPNG)) {
		t.Errorf("image reference: %v", img)
	}
	page := e.do("GET", base+"/messages", nil)
	if bytes.Contains(page.body, []byte(base64.StdEncoding.EncodeToString(redPNG)[:40])) {
		t.Error("the REST page holds the image's bytes")
	}
	if !bytes.Contains(page.body, []byte(img["url"].(string))) {
		t.Error("the REST page lacks the reference")
	}

	a := e.do("GET", img["url"].(string), nil)
	if a.status != 200 || !bytes.Equal(a.body, redPNG) || a.header.Get("Content-Type") != "image/png" ||
		a.header.Get("X-Content-Type-Options") != "nosniff" || a.header.Get("Content-Disposition") != `inline; filename=red.png` {
		t.Fatalf("image: %d %v", a.status, a.header)
	}
	txt := e.do("GET", refs[1].(map[string]any)["url"].(string), nil)
	if string(txt.body) != "hello\n" || txt.header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		txt.header.Get("Content-Disposition") != `inline; filename="we\"ird name.txt"` {
		t.Fatalf("text: %q %v", txt.body, txt.header)
	}
	// An SVG goes as text: it is served as text, never as an image.
	if svg := e.do("GET", refs[2].(map[string]any)["url"].(string), nil); svg.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("svg served as %v", svg.header)
	}
	if a := e.do("GET", base+"/attachments/nope", nil); a.status != 404 || a.errCode(t) != "not_found" {
		t.Errorf("unknown attachment: %d %s", a.status, a.body)
	}
}

// TestInputAttachmentErrors: a bad attachment is refused with a sentence
// naming the file and the rule, and nothing is stored (no message, no
// echo). Only the input route takes bodies over 1 MiB.
func TestInputAttachmentErrors(t *testing.T) {
	e := sdkEnv(t)
	s := sdkSession(e)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	big := make([]byte, 10<<20+1)
	copy(big, redPNG)
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		says   string
	}{
		{"svg", map[string]any{"content": "x", "attachments": []any{att("x.png", "image/svg+xml", []byte("<svg onload=alert(1)>"))}},
			400, "invalid_field", "image/svg+xml"},
		{"exe", map[string]any{"content": "x", "attachments": []any{att("a.exe", "application/octet-stream", []byte("MZ"))}},
			400, "invalid_field", `a.exe`},
		{"lying png", map[string]any{"content": "x", "attachments": []any{att("a.png", "image/png", []byte("hello"))}},
			400, "invalid_field", "not a valid image/png"},
		{"over 10 MiB", map[string]any{"content": "x", "attachments": []any{att("big.png", "image/png", big)}},
			413, "too_large", "10 MiB"},
		{"bad key", map[string]any{"content": "x", "attachments": []any{map[string]string{"name": "a.txt", "type": "text/plain"}}},
			400, "invalid_field", "type"},
		{"body over the limit", `{"content":"` + strings.Repeat("a", wire.MaxInputBody) + `"}`, 413, "too_large", "42 MiB"},
	}
	for _, c := range cases {
		a := e.do("POST", base+"/input", c.body)
		if a.status != c.status || a.errCode(t) != c.code || !strings.Contains(string(a.body), c.says) {
			t.Errorf("%s: %d %.300s, want %d %s saying %s", c.name, a.status, a.body, c.status, c.code, c.says)
		}
	}
	var page struct{ Messages []any }
	e.do("GET", base+"/messages", nil).json(t, &page)
	if len(page.Messages) != 0 {
		t.Errorf("refused input stored %d messages", len(page.Messages))
	}
	if a := e.do("POST", "/api/sessions", `{"cwd":"`+strings.Repeat("a", 2<<20)+`"}`); a.status != 413 {
		t.Errorf("a 2 MiB body on another route: %d", a.status)
	}
}

// TestSocketAttachments: user-message frames carry attachments past the
// 1 MiB frame limit; other frames over it still close the socket (1009);
// a bad attachment gets an error frame and stores nothing.
func TestSocketAttachments(t *testing.T) {
	e := sdkEnv(t)
	s := sdkSession(e)
	path := "/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial(path)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	write := func(c *websocket.Conn, v any) {
		b, _ := json.Marshal(v)
		if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	write(tab, map[string]any{"type": "user-message", "content": "", "attachments": []any{att("a.exe", "application/x-msdownload", []byte("MZ"))}})
	if f := readJSON(t, tab, "error"); f["code"] != "invalid_field" || !strings.Contains(f["message"].(string), "a.exe") {
		t.Fatalf("bad attachment: %v", f)
	}
	notes := bytes.Repeat([]byte("a line of notes\n"), (2<<20)/16) // 2 MiB of text: over the 1 MiB frame limit
	write(tab, map[string]any{"type": "user-message", "content": "", "attachments": []any{
		att("red.png", "image/png", redPNG), att("notes.md", "", notes[:1<<20]), att("more.md", "", notes[:1<<20])}})
	frames := stored(t, tab)
	if refs := userAttachments(t, frames); len(refs) != 3 {
		t.Fatalf("attachments: %v", refs)
	}

	other := e.dial(path)
	defer other.CloseNow()
	readJSON(t, other, "history-end")
	write(other, map[string]any{"type": "cancel", "pad": strings.Repeat("a", wire.MaxClientFrame)})
	for {
		if _, _, err := other.Read(context.Background()); err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Fatalf("large cancel frame: %v, want close 1009", err)
			}
			break
		}
	}
}

// TestAttachmentsOnlyForSDK: a worker kind that takes no attachments
// refuses them with 400 invalid_field, as it refuses the routes it lacks.
func TestAttachmentsOnlyForSDK(t *testing.T) {
	e := newEnv(t, termKinds())
	s := e.createSession(t.TempDir())
	var w worker.Info
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers", map[string]any{"kind": "terminal", "command": []string{"sleep", "100"}}); a.status != 201 {
		t.Fatalf("create terminal: %d %s", a.status, a.body)
	} else {
		a.json(t, &w)
	}
	base := "/api/sessions/" + s.ID + "/workers/" + w.ID
	a := e.do("POST", base+"/input", map[string]any{"content": "x", "attachments": []any{att("red.png", "image/png", redPNG)}})
	if a.status != 400 || a.errCode(t) != "invalid_field" || !strings.Contains(string(a.body), "attachments") {
		t.Errorf("attachments to a terminal: %d %s", a.status, a.body)
	}
	if a := e.do("GET", base+"/attachments/x", nil); a.status != 400 || a.errCode(t) != "invalid_field" {
		t.Errorf("attachment of a terminal: %d %s", a.status, a.body)
	}
}
