package server

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/review"
)

// TestSendReviewRealCLI: two comments sent as a review reach the real CLI
// and, through it, the Messages API as one user message with the files,
// the line numbers, the quoted lines and the comments; the agent answers
// and the comments are sent, and no longer editable.
func TestSendReviewRealCLI(t *testing.T) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	api.SlowChunks = 5000 // the "slow" turn outlasts the test; Close ends it
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(claudePath), worker.KindGitDiff: gitdiff.New},
		cfg:   worker.Config{ClaudePath: claudePath, ChildEnv: api.ClaudeEnv(t.TempDir())}}
	e.start()
	t.Cleanup(e.stop)
	repo := gitRepo(t)
	write(t, filepath.Join(repo, "a.txt"), "one\nfunc two() {}\nthree\nfour\n")

	var s worker.Session
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": repo, "agent": "sdk"}); a.status != http.StatusCreated {
		t.Fatalf("create session: %d %s", a.status, a.body)
	} else {
		a.json(t, &s)
	}
	wid := *s.ActiveAgentWorkerID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + wid)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")

	addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "new", "startLine": 2, "endLine": 3, "body": "Rename two to second."})
	addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "old", "startLine": 1, "endLine": 1, "body": "This line was fine."})
	a := e.do("POST", "/api/sessions/"+s.ID+"/comments/send", nil)
	if a.status != http.StatusOK {
		t.Fatalf("send: %d %s", a.status, a.body)
	}
	var ans review.Sent
	a.json(t, &ans)
	if ans.WorkerID != wid || ans.Sent != 2 {
		t.Fatalf("send answer: %+v", ans)
	}
	frames := stored(t, tab)
	reply := ""
	for _, f := range frames {
		if m := f["message"].(map[string]any); m["type"] == "assistant" {
			reply += extractText(m)
		}
	}
	if !strings.Contains(reply, "Echo: Review of your changes") {
		t.Fatalf("the agent's reply: %q", reply)
	}
	got := api.MessageRequests()[len(api.MessageRequests())-1].LastUserText()
	for _, want := range []string{
		"## 1. a.txt:2-3 (new side", "2 | func two() {}\n3 | three\n", "Rename two to second.",
		"## 2. a.txt:1 (old side", "1 | one\n", "This line was fine.",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("the API's user message lacks %q:\n%s", want, got)
		}
	}
	cs := listComments(t, e, s.ID)
	for _, c := range cs {
		if c.Status != review.StatusSent || c.SentAt == nil {
			t.Fatalf("not marked sent: %+v", c)
		}
	}
	if a := e.do("PATCH", "/api/sessions/"+s.ID+"/comments/"+cs[0].ID, map[string]any{"body": "later"}); a.status != http.StatusConflict {
		t.Fatalf("edit a sent comment: %d %s", a.status, a.body)
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/comments/send", nil); a.status != http.StatusConflict {
		t.Fatalf("send with no drafts: %d %s", a.status, a.body)
	}

	// While a turn runs, the review waits in the chat's durable queue.
	wbase := "/api/sessions/" + s.ID + "/workers/" + wid
	if a := e.do("POST", wbase+"/input", map[string]string{"content": "slow please"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	for {
		f := readJSON(t, tab, "sdk-message")
		if f["message"].(map[string]any)["type"] == "stream_event" {
			break
		}
	}
	addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "new", "startLine": 4, "endLine": 4, "body": "And this."})
	if a := e.do("POST", "/api/sessions/"+s.ID+"/comments/send", nil); a.status != http.StatusOK {
		t.Fatalf("send during a turn: %d %s", a.status, a.body)
	}
	var q struct{ Items []struct{ Content string } }
	e.do("GET", wbase+"/queue", nil).json(t, &q)
	if len(q.Items) != 1 || !strings.Contains(q.Items[0].Content, "4 | four\n") {
		t.Fatalf("queue during the turn: %+v", q)
	}
}

// extractText joins the text blocks of an assistant message.
func extractText(m map[string]any) string {
	inner, _ := m["message"].(map[string]any)
	blocks, _ := inner["content"].([]any)
	out := ""
	for _, b := range blocks {
		if bb, ok := b.(map[string]any); ok && bb["type"] == "text" {
			out += bb["text"].(string)
		}
	}
	return out
}

// TestSendReviewToTerminalRealCLI: with the terminal view (pty-agent)
// driving the conversation, the review is typed into the real CLI's TUI
// and reaches the Messages API whole, quoted lines included.
func TestSendReviewToTerminalRealCLI(t *testing.T) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindPTYAgent: ptyagent.New, worker.KindGitDiff: gitdiff.New},
		cfg:   worker.Config{ClaudePath: claudePath, ChildEnv: api.ClaudeEnv(t.TempDir())}}
	e.start()
	t.Cleanup(e.stop)
	repo := gitRepo(t)
	write(t, filepath.Join(repo, "a.txt"), "one\nfunc two() {}\nthree\n")
	var s worker.Session
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": repo, "agent": "pty-agent"}); a.status != http.StatusCreated {
		t.Fatalf("create session: %d %s", a.status, a.body)
	} else {
		a.json(t, &s)
	}
	_, rt, err := e.mgr.WaitRuntime(t.Context(), s.ID, *s.ActiveAgentWorkerID)
	if err != nil {
		t.Fatal(err)
	}
	pty := rt.(*ptyagent.Runtime)
	waitScreen(t, pty, func(sc string) bool { return strings.Contains(sc, "\n❯") && pty.Activity() == worker.ActivityIdle })
	addComment(t, e, s.ID, map[string]any{"path": "a.txt", "side": "new", "startLine": 2, "endLine": 3, "body": "Rename two to second."})
	if a := e.do("POST", "/api/sessions/"+s.ID+"/comments/send", nil); a.status != http.StatusOK {
		t.Fatalf("send: %d %s", a.status, a.body)
	}
	waitScreen(t, pty, func(sc string) bool {
		// The TUI takes the typed review as a paste and echoes it once
		// in the prompt history and once in the reply.
		return strings.Count(sc, "Rename two to second.") >= 2 && strings.Contains(sc, "(request had") && pty.Activity() == worker.ActivityIdle
	})
	got := api.MessageRequests()[len(api.MessageRequests())-1].LastUserText()
	for _, want := range []string{"## 1. a.txt:2-3 (new side", "2 | func two() {}\n3 | three\n", "Rename two to second."} {
		if !strings.Contains(got, want) {
			t.Fatalf("the API's user message lacks %q:\n%s", want, got)
		}
	}
}
