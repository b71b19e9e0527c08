package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// queueItems returns the queue of a chat worker.
func (e *env) queueItems(base string) []wire.QueueItem {
	e.t.Helper()
	var q queueAnswer
	if a := e.do("GET", base+"/queue", nil); a.status != http.StatusOK {
		e.t.Fatalf("GET queue: %d %s", a.status, a.body)
	} else {
		a.json(e.t, &q)
	}
	return q.Items
}

func (e *env) queueFiles(sid string) int {
	e.t.Helper()
	ids, err := e.store.QueueFileIDs(sid)
	if err != nil {
		e.t.Fatal(err)
	}
	return len(ids)
}

// TestQueueAttachments: a message with attachments waits in the queue
// (POST …/input with "when":"queue", POST …/queue), its files served by
// URL while it waits; bad files are refused as a direct send's are and
// store nothing; an edit keeps the files, a removal drops them; they
// survive a restart and a switch to the terminal view and back; and the
// delivered message holds them as a direct send's does.
func TestQueueAttachments(t *testing.T) {
	e := sdkEnv(t)
	e.stop()
	e.kinds[worker.KindPTYAgent] = (&agentLab{}).factory
	e.start()
	s := sdkSession(e)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	// An item due in a day holds back those behind it, as a running turn would.
	later := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	if a := e.do("POST", base+"/queue", map[string]string{"content": "hold", "notBefore": later}); a.status != http.StatusCreated {
		t.Fatalf("POST queue: %d %s", a.status, a.body)
	}
	png := att("red.png", "image/png", redPNG)
	if a := e.do("POST", base+"/input", map[string]any{"content": "see", "when": "queue", "attachments": []any{png}}); a.status != http.StatusAccepted {
		t.Fatalf("input with a file, queued: %d %s", a.status, a.body)
	}
	var txt wire.QueueItem
	a := e.do("POST", base+"/queue", map[string]any{"content": "", "attachments": []any{att("n.txt", "text/plain", []byte("hi\n"))}})
	if a.json(t, &txt); a.status != http.StatusCreated || len(txt.Attachments) != 1 || txt.Attachments[0].Name != "n.txt" {
		t.Fatalf("POST queue with a file: %d %s", a.status, a.body)
	}
	items := e.queueItems(base)
	if len(items) != 3 || items[0].Attachments != nil || len(items[1].Attachments) != 1 {
		t.Fatalf("queue %+v", items)
	}
	ref := items[1].Attachments[0]
	if ref.Name != "red.png" || ref.MediaType != "image/png" || ref.Size != len(redPNG) || ref.URL != base+"/attachments/"+ref.ID {
		t.Fatalf("queued reference %+v", ref)
	}
	if a := e.do("GET", ref.URL, nil); a.status != 200 || !bytes.Equal(a.body, redPNG) || a.header.Get("Content-Type") != "image/png" {
		t.Fatalf("queued image: %d %v", a.status, a.header)
	}

	// Refused as a direct send is, and nothing stored.
	big := make([]byte, 10<<20+1)
	copy(big, redPNG)
	for _, c := range []struct {
		path   string
		file   map[string]string
		status int
		code   string
	}{
		{"/input", att("big.png", "image/png", big), 413, "too_large"},
		{"/queue", att("big.png", "image/png", big), 413, "too_large"},
		{"/input", att("x.png", "image/svg+xml", []byte("<svg>")), 400, "invalid_field"},
		{"/queue", att("a.png", "image/png", []byte("hello")), 400, "invalid_field"},
	} {
		body := map[string]any{"content": "x", "attachments": []any{png, c.file}}
		if c.path == "/input" {
			body["when"] = "queue"
		}
		if a := e.do("POST", base+c.path, body); a.status != c.status || a.errCode(t) != c.code {
			t.Errorf("POST %s with %s: %d %.200s", c.path, c.file["name"], a.status, a.body)
		}
	}
	if got := e.queueContents(base); got != "hold,see," || e.queueFiles(s.ID) != 2 {
		t.Fatalf("after refusals: queue %q, %d files", got, e.queueFiles(s.ID))
	}

	// An edit keeps the files; a removal drops them.
	var edited wire.QueueItem
	e.do("PATCH", base+"/queue/"+items[1].ID, map[string]any{"content": "see2"}).json(t, &edited)
	if edited.Content != "see2" || len(edited.Attachments) != 1 || edited.Attachments[0].ID != ref.ID {
		t.Fatalf("edited item %+v", edited)
	}
	if a := e.do("DELETE", base+"/queue/"+txt.ID, nil); a.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", a.status, a.body)
	}
	if a := e.do("GET", txt.Attachments[0].URL, nil); a.status != 404 || e.queueFiles(s.ID) != 1 {
		t.Fatalf("removed item's file: %d, %d files stored", a.status, e.queueFiles(s.ID))
	}

	// A restart, then a switch to the terminal view and back: kept, and
	// served by the new chat worker.
	e.restart()
	var sw struct{ Worker worker.Info }
	switchTo(e, s.ID, "pty-agent", false).json(t, &sw)
	switchTo(e, s.ID, "sdk", false).json(t, &sw)
	back := "/api/sessions/" + s.ID + "/workers/" + sw.Worker.ID
	items = e.queueItems(back)
	if len(items) != 2 || len(items[1].Attachments) != 1 || items[1].Attachments[0].URL != back+"/attachments/"+ref.ID {
		t.Fatalf("queue after restart and switch %+v", items)
	}
	if a := e.do("GET", items[1].Attachments[0].URL, nil); a.status != 200 || !bytes.Equal(a.body, redPNG) {
		t.Fatalf("queued image after the switch: %d", a.status)
	}

	// Delivered (the chat is idle): one stored message with the file, the
	// queued copy gone.
	tab := e.dial("/ws" + back[4:])
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	if a := e.do("DELETE", back+"/queue/"+items[0].ID, nil); a.status != http.StatusNoContent {
		t.Fatalf("DELETE hold: %d %s", a.status, a.body)
	}
	frames := stored(t, tab)
	refs := userAttachments(t, frames)
	if len(refs) != 1 || refs[0].(map[string]any)["name"] != "red.png" {
		t.Fatalf("delivered message's attachments %v", refs)
	}
	if a := e.do("GET", refs[0].(map[string]any)["url"].(string), nil); a.status != 200 || !bytes.Equal(a.body, redPNG) {
		t.Errorf("delivered image: %d", a.status)
	}
	if got := e.queueContents(back); got != "" || e.queueFiles(s.ID) != 0 {
		t.Errorf("after delivery: queue %q, %d files", got, e.queueFiles(s.ID))
	}
	if res, _ := json.Marshal(frames[len(frames)-1]); !strings.Contains(string(res), "see2") {
		t.Errorf("the turn did not answer the queued text: %v", frames[len(frames)-1])
	}
}
