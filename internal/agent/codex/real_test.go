package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The real CLI (node_modules/.bin/codex, pinned 0.171.0) against the fake
// Responses API. With AGENTDESK_CODEX_RECORD=1 each test also writes its
// transcript to testdata/recordings.

func TestRealTextTurn(t *testing.T) {
	h := newHarness(t, "text")
	s, c := h.open(SessionOptions{})
	if len(s.Models()) == 0 || s.Thread() == "" {
		t.Fatalf("models %v thread %q", s.Models(), s.Thread())
	}
	if err := s.Send(t.Context(), Message{ID: "u-1", Text: "hello think"}); err != nil {
		t.Fatal(err)
	}
	init := c.wait(t, "init", func(o Out) bool { return isType("system")(o) && decode(t, o).Subtype == "init" })
	if init.InForce.Model != "gpt-fake" {
		t.Fatalf("init says %+v", init.InForce)
	}
	c.wait(t, "a thinking delta", func(o Out) bool { return o.Kind == OutDelta && strings.Contains(string(o.Raw), "thinking_delta") })
	if m := decode(t, c.wait(t, "thinking", hasBlock(t, "thinking"))); m.Message.Content[0].Thinking == "" {
		t.Fatalf("empty thinking: %+v", m)
	}
	text := decode(t, c.wait(t, "text", hasBlock(t, "text")))
	if got := text.Message.Content[0].Text; !strings.HasPrefix(got, "Echo: hello think (") {
		t.Fatalf("text %q", got)
	}
	c.wait(t, "the end of the stream", func(o Out) bool { return o.EndsMessage })
	r := decode(t, c.wait(t, "result", isResult))
	// The fake reports 100 input tokens, 20 of them cached, and 10 out.
	if r.Subtype != "success" || r.IsError || r.Usage["input_tokens"] != 80 ||
		r.Usage["cache_read_input_tokens"] != 20 || r.Usage["output_tokens"] != 10 {
		t.Fatalf("result %+v", r)
	}
	for _, o := range c.all() {
		if o.Kind == OutMessage && o.Type == "user" {
			t.Fatalf("the chat's own message came back: %s", o.Raw)
		}
	}
}

func TestRealCommandApprovals(t *testing.T) {
	h := newHarness(t, "approvals")
	s, c := h.open(SessionOptions{Settings: Settings{Policy: "untrusted"}})
	ask := func(prompt string) *Request {
		t.Helper()
		h.note("send " + prompt)
		if err := s.Send(t.Context(), Message{ID: "u-" + prompt, Text: prompt}); err != nil {
			t.Fatal(err)
		}
		return c.wait(t, "a request", isRequest).Request
	}
	result := func() msg {
		t.Helper()
		m := decode(t, c.wait(t, "a tool result", hasBlock(t, "tool_result")))
		c.wait(t, "the turn's end", isResult)
		return m
	}

	req := ask("bash: echo hi > a.txt && cat a.txt")
	var in struct{ Command string }
	json.Unmarshal(req.Input, &in)
	if req.Tool != "Bash" || in.Command != "echo hi > a.txt && cat a.txt" || !strings.Contains(string(req.Suggestions), `"destination":"session"`) {
		t.Fatalf("request %+v input %s", req, req.Input)
	}
	if err := s.Answer(req.ID, Answer{Allow: true}); err != nil {
		t.Fatal(err)
	}
	if m := result(); m.Message.Content[0].Content != "hi\n" || m.Message.Content[0].IsError || m.ToolUseResult["exitCode"] != 0.0 {
		t.Fatalf("allowed: %+v", m)
	}

	req = ask("bash: echo no > b.txt")
	if err := s.Answer(req.ID, Answer{Allow: false}); err != nil {
		t.Fatal(err)
	}
	if m := result(); !m.Message.Content[0].IsError || m.ToolUseResult["status"] != "declined" {
		t.Fatalf("denied: %+v", m)
	}
	if _, err := os.Stat(filepath.Join(h.work, "b.txt")); !os.IsNotExist(err) {
		t.Fatalf("a denied command ran: %v", err)
	}

	req = ask("bash: touch c.txt")
	if err := s.Answer(req.ID, Answer{Allow: true, Session: true}); err != nil {
		t.Fatal(err)
	}
	result()
	h.note("send bash: touch c.txt (allowed for the session)")
	if err := s.Send(t.Context(), Message{ID: "u-again", Text: "bash: touch c.txt"}); err != nil {
		t.Fatal(err)
	}
	c.wait(t, "the second run's result", hasBlock(t, "tool_result"))
	c.wait(t, "the turn's end", isResult)
	for _, o := range c.all() {
		if o.Kind == OutRequest && o.Request.ID != req.ID && strings.Contains(string(o.Request.Input), "touch c.txt") {
			t.Fatal("asked again for a command allowed for the session")
		}
	}

	req = ask("bash: false")
	s.Answer(req.ID, Answer{Allow: true})
	if m := result(); !m.Message.Content[0].IsError || m.ToolUseResult["exitCode"] != 1.0 {
		t.Fatalf("failing command: %+v", m)
	}
}

func TestRealFileChanges(t *testing.T) {
	h := newHarness(t, "filechange")
	s, c := h.open(SessionOptions{Settings: Settings{Policy: "untrusted"}})
	for _, step := range []struct{ prompt, tool, want string }{
		{"patch:f.txt", "Write", "hello\n"},
		{"edit:f.txt", "Edit", "hello world\n"},
	} {
		h.note("send " + step.prompt)
		if err := s.Send(t.Context(), Message{ID: "u-" + step.prompt, Text: step.prompt}); err != nil {
			t.Fatal(err)
		}
		use := decode(t, c.wait(t, "the edit call", hasBlock(t, "tool_use")))
		req := c.wait(t, "a request", isRequest).Request
		if b := use.Message.Content[0]; b.Name != step.tool || req.Tool != step.tool || req.ToolUseID != b.ID {
			t.Fatalf("%s: call %+v request %+v", step.prompt, b, req)
		}
		s.Answer(req.ID, Answer{Allow: true})
		res := decode(t, c.wait(t, "its result", hasBlock(t, "tool_result")))
		if res.Message.Content[0].IsError {
			t.Fatalf("%s: %+v", step.prompt, res)
		}
		if step.tool == "Edit" {
			var edit struct{ OldString, NewString string }
			json.Unmarshal(use.Message.Content[0].Input, &struct {
				O *string `json:"old_string"`
				N *string `json:"new_string"`
			}{&edit.OldString, &edit.NewString})
			if edit.OldString != "hello\n" || edit.NewString != "hello world\n" || res.ToolUseResult["structuredPatch"] == nil {
				t.Fatalf("edit %+v result %+v", edit, res.ToolUseResult)
			}
		}
		c.wait(t, "the turn's end", isResult)
		if b, _ := os.ReadFile(filepath.Join(h.work, "f.txt")); string(b) != step.want {
			t.Fatalf("%s: f.txt holds %q", step.prompt, b)
		}
	}
}

func TestRealInterruptThenTurn(t *testing.T) {
	h := newHarness(t, "interrupt")
	h.api.SlowDelay = time.Hour // the reply stops after its first chunk
	s, c := h.open(SessionOptions{})
	s.Send(t.Context(), Message{ID: "u-1", Text: "be slow"})
	c.wait(t, "the first chunk", func(o Out) bool { return o.Kind == OutDelta && strings.Contains(string(o.Raw), "slow chunk 00") })
	h.note("interrupt")
	if err := s.Interrupt(t.Context()); err != nil {
		t.Fatal(err)
	}
	cut := decode(t, c.wait(t, "the cut text", hasBlock(t, "text")))
	if !cut.Aborted || cut.Message.Content[0].Text != "slow chunk 00. " {
		t.Fatalf("cut text %+v", cut)
	}
	if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != "error_during_execution" {
		t.Fatalf("interrupted result %+v", r)
	}
	h.note("send after")
	s.Send(t.Context(), Message{ID: "u-2", Text: "after the interrupt"})
	if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != "success" || !strings.HasPrefix(r.Result, "Echo: after the interrupt") {
		t.Fatalf("next turn %+v", r)
	}
}

func TestRealSteer(t *testing.T) {
	h := newHarness(t, "steer")
	h.api.SlowDelay = time.Hour
	s, c := h.open(SessionOptions{})
	s.Send(t.Context(), Message{ID: "u-1", Text: "be slow"})
	c.wait(t, "the first chunk", func(o Out) bool { return o.Kind == OutDelta && strings.Contains(string(o.Raw), "slow chunk 00") })
	h.note("steer")
	if err := s.Send(t.Context(), Message{ID: "u-2", Text: "steer: go on"}); err != nil {
		t.Fatal(err)
	}
	r := decode(t, c.wait(t, "result", isResult))
	if r.Subtype != "success" || !strings.HasPrefix(r.Result, "Echo: steer: go on") {
		t.Fatalf("steered turn %+v", r)
	}
	results := 0
	for _, o := range c.all() {
		if isResult(o) {
			results++
		}
	}
	if results != 1 {
		t.Fatalf("%d results: the steer began a turn of its own", results)
	}
}

func TestRealResumeAfterKill(t *testing.T) {
	h := newHarness(t, "resume")
	h.api.SlowDelay = time.Hour
	s, c := h.open(SessionOptions{})
	s.Send(t.Context(), Message{ID: "u-1", Text: "remember the word kumquat"})
	c.wait(t, "result", isResult)
	s.Send(t.Context(), Message{ID: "u-2", Text: "be slow"})
	c.wait(t, "the first chunk", func(o Out) bool { return o.Kind == OutDelta && strings.Contains(string(o.Raw), "slow chunk 00") })
	h.note("kill")
	s.Signal(syscall.SIGKILL)
	<-s.Done()
	thread := s.Thread()

	h.note("resume")
	s2, c2 := h.open(SessionOptions{Thread: thread})
	if s2.Thread() != thread || s2.Resumed() != nil {
		t.Fatalf("thread %q (want %q), resume error %v", s2.Thread(), thread, s2.Resumed())
	}
	s2.Send(t.Context(), Message{ID: "u-3", Text: "what was the word"})
	c2.wait(t, "result", isResult)
	reqs := h.api.ResponseRequests()
	if last := reqs[len(reqs)-1]; !strings.Contains(string(last.RawBody), "kumquat") {
		t.Fatalf("the resumed thread lost its history: %s", last.RawBody)
	}
}

func TestRealResumeUnknownThreadStartsANewOne(t *testing.T) {
	h := newHarness(t, "")
	s, _ := h.open(SessionOptions{Thread: "01a21f60-0000-7000-8000-000000000000"})
	if s.Resumed() == nil || s.Thread() == "" || s.Thread() == "01a21f60-0000-7000-8000-000000000000" {
		t.Fatalf("thread %q, resume error %v", s.Thread(), s.Resumed())
	}
}

func TestRealImageInput(t *testing.T) {
	h := newHarness(t, "image")
	s, c := h.open(SessionOptions{})
	url := "data:image/png;base64," + onePixelPNG
	s.Send(t.Context(), Message{ID: "u-1", Text: "what is in this picture", Images: []string{url}})
	if r := decode(t, c.wait(t, "result", isResult)); !strings.Contains(r.Result, "1 images") {
		t.Fatalf("result %+v", r)
	}
	reqs := h.api.ResponseRequests()
	if imgs := reqs[len(reqs)-1].Images(); len(imgs) != 1 || imgs[0] != url {
		t.Fatalf("images sent: %v", imgs)
	}
}

// onePixelPNG is a valid 1×1 PNG, base64.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"

func TestRealAPIDownRetriesUntilInterrupted(t *testing.T) {
	h := newHarness(t, "apidown")
	s, c := h.open(SessionOptions{})
	if err := h.api.SetDown(true); err != nil {
		t.Fatal(err)
	}
	s.Send(t.Context(), Message{ID: "u-1", Text: "hello"})
	retry := decode(t, c.wait(t, "a retry", func(o Out) bool { return o.Kind == OutMessage && strings.Contains(string(o.Raw), "api_retry") }))
	if !strings.Contains(retry.Error, "waiting for network") {
		t.Fatalf("retry %+v", retry)
	}
	h.note("interrupt")
	if err := s.Interrupt(t.Context()); err != nil {
		t.Fatal(err)
	}
	if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != "error_during_execution" {
		t.Fatalf("result %+v", r)
	}
}

func TestRealFailedTurn(t *testing.T) {
	h := newHarness(t, "failed")
	s, c := h.open(SessionOptions{})
	s.Send(t.Context(), Message{ID: "u-1", Text: "error400"})
	if r := decode(t, c.wait(t, "result", isResult)); r.Subtype != "error" || !r.IsError || r.Result == "" {
		t.Fatalf("result %+v", r)
	}
}
