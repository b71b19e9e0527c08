package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
)

// These tests run the real CLI (node_modules/.bin/claude) against the fake
// Messages API, in a temp HOME and CLAUDE_CONFIG_DIR. They skip loudly
// when it is not installed, and fail then under CI=true.

type realSetup struct {
	api  *fakeapi.Server
	path string
	home string
	cwd  string
}

func newReal(t *testing.T) *realSetup {
	t.Helper()
	path := fakeapi.RequireClaude(t)
	return &realSetup{api: fakeapi.New(t), path: path, home: t.TempDir(), cwd: t.TempDir()}
}

func (s *realSetup) harness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	o.path, o.baseEnv, o.cwd = s.path, s.api.ClaudeEnv(s.home), s.cwd
	return newHarness(t, o)
}

// lastRequest is the last /v1/messages request the CLI sent.
func (s *realSetup) lastRequest(t *testing.T) fakeapi.Request {
	t.Helper()
	reqs := s.api.MessageRequests()
	if len(reqs) == 0 {
		t.Fatal("the CLI sent no request")
	}
	return reqs[len(reqs)-1]
}

// allText joins the text of every message of a request.
func allText(r fakeapi.Request) string {
	var b strings.Builder
	for _, m := range r.Messages() {
		for _, bl := range m.Blocks() {
			b.WriteString(bl.Text)
			b.Write(bl.Content)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func resultText(t *testing.T, f frame) (subtype, text string) {
	t.Helper()
	var res struct {
		Subtype string `json:"subtype"`
		Result  string `json:"result"`
	}
	if err := json.Unmarshal(f.Raw, &res); err != nil {
		t.Fatal(err)
	}
	return res.Subtype, res.Result
}

func TestRealNewConversationAndFollowUp(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "hello there")
	res := a.until(isResult)
	if _, text := resultText(t, res); !strings.Contains(text, "Echo: hello there") {
		t.Errorf("first result: %s", res.raw)
	}
	var initSession string
	for _, f := range a.frames {
		if f.Type == "sdk-message" && f.Message.Type == "system" && f.Message.Subtype == "init" {
			var l struct {
				SessionID string `json:"session_id"`
			}
			json.Unmarshal(f.Raw, &l)
			initSession = l.SessionID
		}
		if f.Type == "sdk-message" && f.Message.Type == "assistant" && !strings.Contains(f.HTML["0"], "Echo: hello there") {
			t.Errorf("assistant html: %v", f.HTML)
		}
	}
	if initSession != h.rt.conv {
		t.Errorf("CLI session %q, want the conversation id %q", initSession, h.rt.conv)
	}

	send(t, h, "second message")
	a.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "second message") })
	req := s.lastRequest(t)
	if req.SessionID() != h.rt.conv || req.LastUserText() != "second message" ||
		!strings.Contains(allText(req), "hello there") {
		t.Errorf("follow-up request: session %q, last %q, context:\n%s", req.SessionID(), req.LastUserText(), allText(req))
	}
	sameFrames(t, storedOf(a.frames), storedFrames(t, h.store))
}

func TestRealBashAllowedAndDenied(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")

	send(t, h, "bash: touch allowed.txt")
	req := a.until(isType("permission-request"))
	if req.ToolName != "Bash" || !strings.Contains(string(req.Input), "touch allowed.txt") {
		t.Fatalf("permission-request: %s", req.raw)
	}
	if err := h.rt.RespondPermission(req.RequestID, "allow", "", nil); err != nil {
		t.Fatal(err)
	}
	res := a.until(isResult)
	if _, err := os.Stat(filepath.Join(s.cwd, "allowed.txt")); err != nil {
		t.Errorf("allowed command did not run: %v (result %s)", err, res.raw)
	}

	send(t, h, "bash: touch denied.txt")
	req = a.until(isType("permission-request"))
	msg := `{"type":"permission-response","requestId":"` + req.RequestID + `","behavior":"deny","message":"not today"}`
	if _, err := h.rt.HandleClient(t.Context(), []byte(msg)); err != nil {
		t.Fatal(err)
	}
	res = a.until(isResult)
	if _, err := os.Stat(filepath.Join(s.cwd, "denied.txt")); !os.IsNotExist(err) {
		t.Errorf("denied command ran: %v", err)
	}
	if _, text := resultText(t, res); !strings.Contains(text, "(error): 'not today'") {
		t.Errorf("the model did not get the denial: %s", res.raw)
	}
}

func TestRealAskUserQuestion(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "please ask me")
	req := a.until(isType("permission-request"))
	var full struct {
		RequiresUserInteraction bool `json:"requiresUserInteraction"`
		Input                   struct {
			Questions []struct {
				Question string `json:"question"`
			} `json:"questions"`
		} `json:"input"`
	}
	if err := json.Unmarshal(req.raw, &full); err != nil {
		t.Fatal(err)
	}
	if req.ToolName != "AskUserQuestion" || !full.RequiresUserInteraction || len(full.Input.Questions) == 0 {
		t.Fatalf("question request: %s", req.raw)
	}
	var input map[string]any
	json.Unmarshal(req.Input, &input)
	input["answers"] = map[string]string{full.Input.Questions[0].Question: "Blue"}
	updated, _ := json.Marshal(input)
	if err := h.rt.RespondPermission(req.RequestID, "allow", "", updated); err != nil {
		t.Fatal(err)
	}
	res := a.until(isResult)
	if _, text := resultText(t, res); !strings.Contains(text, `"Blue"`) {
		t.Errorf("the answer did not reach the model: %s", res.raw)
	}
}

func TestRealCancelKeepsContext(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "be slow please")
	a.until(func(f frame) bool {
		return f.Type == "sdk-message" && f.Message.Type == "stream_event" && strings.Contains(string(f.Raw), "slow chunk 01")
	})
	if h.rt.Activity() != worker.ActivityActive {
		t.Errorf("activity during the turn: %s", h.rt.Activity())
	}
	ok, err := h.rt.Cancel(t.Context())
	if !ok || err != nil {
		t.Fatalf("Cancel = %v, %v", ok, err)
	}
	res := a.until(isResult)
	if sub, _ := resultText(t, res); sub != "error_during_execution" {
		t.Errorf("interrupted result: %s", res.raw)
	}
	a.until(func(f frame) bool { return f.Type == "activity" && f.State == "idle" })

	send(t, h, "after the cancel")
	a.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "after the cancel") })
	ctx := allText(s.lastRequest(t))
	if !strings.Contains(ctx, "be slow please") || !strings.Contains(ctx, "slow chunk 00") {
		t.Errorf("follow-up lost the interrupted turn:\n%s", ctx)
	}
	if s.api.Disconnects() < 1 {
		t.Error("the slow stream was not closed by the interrupt")
	}
}

func TestRealServerRestartResumes(t *testing.T) {
	s := newReal(t)
	h1 := s.harness(t, harnessOptions{})
	a := attach(t, h1.rt, "")
	send(t, h1, "remember the word banana")
	a.until(isResult)
	h1.stop()

	h2 := s.harness(t, harnessOptions{store: h1.store, conv: h1.conv, restored: true})
	b := attach(t, h2.rt, "")
	send(t, h2, "which word")
	b.until(func(f frame) bool { return isResult(f) && strings.Contains(string(f.raw), "which word") })
	req := s.lastRequest(t)
	if req.SessionID() != h1.conv || !strings.Contains(allText(req), "banana") {
		t.Errorf("resumed request: session %q (want %q), context:\n%s", req.SessionID(), h1.conv, allText(req))
	}
	sameFrames(t, storedOf(b.frames), storedFrames(t, h2.store))
}

// A session that names a conversation the CLI never saved (the first start
// failed, say) still gets a working agent: --resume is refused, and the
// runtime starts the conversation with --session-id instead.
func TestRealUnknownConversationStartsNew(t *testing.T) {
	s := newReal(t)
	h := s.harness(t, harnessOptions{conv: "0190a000-0000-7000-8000-0000000000aa"})
	a := attach(t, h.rt, "")
	send(t, h, "hello")
	a.until(isResult)
	if req := s.lastRequest(t); req.SessionID() != "0190a000-0000-7000-8000-0000000000aa" {
		t.Errorf("session header %q", req.SessionID())
	}
	for _, f := range a.frames {
		if f.Type == "error" {
			t.Errorf("error frame: %s", f.raw)
		}
	}
}
