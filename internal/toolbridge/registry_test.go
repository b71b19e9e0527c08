package toolbridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestCallAnsweredWithTextAndImage(t *testing.T) {
	r := New(Options{})
	p := r.Connect("page")
	defer p.Close()
	register(t, p, "s1", echoTool("echo"))
	want := Result{Content: []Content{
		{Type: "text", Text: "hello"},
		{Type: "image", Data: "iVBORw0KGgo=", MimeType: "image/png"},
		{Type: "json", JSON: json.RawMessage(`{"rows":3}`)},
	}}
	var got Result
	var started [2]string
	var wg sync.WaitGroup
	wg.Go(func() {
		got = r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "echo", Input: json.RawMessage(`{"text":"hi"}`), ToolUseID: "toolu_1",
			Started: func(id, provider string) { started = [2]string{id, provider} }})
	})
	f := answerNext(t, p, want)
	wg.Wait()
	if f["sessionId"] != "s1" || f["tool"] != "echo" || f["toolUseId"] != "toolu_1" || f["input"].(map[string]any)["text"] != "hi" {
		t.Errorf("call frame %v", f)
	}
	if started[0] != f["callId"] || started[1] != "page" {
		t.Errorf("started %v, call frame %v", started, f)
	}
	if b1, b2 := mustJSON(got), mustJSON(want); string(b1) != string(b2) {
		t.Errorf("result %s, want %s", b1, b2)
	}
}

func TestNoProviderAnswersAtOnce(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	other := r.Connect("other session's page")
	defer other.Close()
	register(t, other, "s2", echoTool("echo"))
	res := r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "echo"})
	if !res.IsError || !strings.Contains(res.Content[0].Text, "No provider serves the tool echo") {
		t.Errorf("got %+v", res)
	}
	if len(other.Frames()) != 0 {
		t.Error("a provider of another session got the call")
	}
}

func TestRoutingPrefersTheSessionThenTheNewest(t *testing.T) {
	r := New(Options{})
	all := r.Connect("every session")
	old := r.Connect("old tab")
	newer := r.Connect("new tab")
	for _, p := range []*Provider{all, old, newer} {
		defer p.Close()
	}
	register(t, old, "s1", echoTool("echo"))
	register(t, newer, "s1", echoTool("echo"))
	register(t, all, AllScopes, echoTool("echo"), echoTool("only_all"))
	if got := r.Provider("s1", "echo"); got != "new tab" {
		t.Errorf("echo goes to %q, want the newest registration for the session", got)
	}
	register(t, old, "s1", echoTool("echo")) // the old tab was shown again
	if got := r.Provider("s1", "echo"); got != "old tab" {
		t.Errorf("echo goes to %q after the old tab registered again", got)
	}
	if got := r.Provider("s1", "only_all"); got != "every session" {
		t.Errorf("only_all goes to %q", got)
	}
	if got := r.Provider("s9", "echo"); got != "every session" {
		t.Errorf("another session's echo goes to %q", got)
	}
	list := r.Tools("s1")
	if len(list) != 2 || list[0].Name != "echo" || list[0].Provider != "old tab" || list[1].Name != "only_all" {
		t.Errorf("tools of s1: %+v", list)
	}
	old.Close()
	if got := r.Provider("s1", "echo"); got != "new tab" {
		t.Errorf("after the old tab closed echo goes to %q", got)
	}
}

func TestProviderGoneMidCall(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("tab")
	register(t, p, "s1", echoTool("echo"))
	done := make(chan Result)
	go func() { done <- r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "echo"}) }()
	nextFrame(t, p) // the call reached the provider
	p.Close()
	res := <-done
	if !res.IsError || !strings.Contains(res.Content[0].Text, "tab, went away before answering") {
		t.Errorf("got %+v", res)
	}
	if err := p.Answer("x", TextResult("late")); !errors.Is(err, ErrClosed) {
		t.Errorf("answer after close: %v", err)
	}
	if _, err := p.Register("s1", []Tool{echoTool("echo")}); !errors.Is(err, ErrClosed) {
		t.Errorf("register after close: %v", err)
	}
}

func TestTimeoutCancelsTheProvidersCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := New(Options{Timeout: 30 * time.Second})
		p := r.Connect("slow tab")
		defer p.Close()
		register(t, p, "s1", echoTool("echo"))
		res := r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "echo"})
		if !res.IsError || !strings.Contains(res.Content[0].Text, "did not answer within 30s") {
			t.Errorf("got %+v", res)
		}
		call := frame(t, p)
		cancel := frame(t, p)
		if cancel["type"] != TypeCancel || cancel["callId"] != call["callId"] || cancel["reason"] != "timeout" {
			t.Errorf("after the timeout the provider got %v", cancel)
		}
		if err := p.Answer(call["callId"].(string), TextResult("late")); !errors.Is(err, ErrUnknownCall) {
			t.Errorf("a late answer: %v", err)
		}
	})
}

func TestCallerCancelTellsTheProvider(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("tab")
	defer p.Close()
	register(t, p, "s1", echoTool("echo"))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan Result)
	go func() { done <- r.Call(ctx, CallRequest{Scope: "s1", Tool: "echo"}) }()
	call := nextFrame(t, p)
	cancel()
	res := <-done
	if !res.IsError || !strings.Contains(res.Content[0].Text, "cancelled") {
		t.Errorf("got %+v", res)
	}
	f := nextFrame(t, p)
	if f["type"] != TypeCancel || f["callId"] != call["callId"] || f["reason"] != "cancelled" {
		t.Errorf("provider got %v", f)
	}
}

func TestProviderThatStopsReadingIsDropped(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("stuck")
	register(t, p, "s1", echoTool("echo"))
	for range outboxLen {
		p.reply([]byte(`{}`)) // fill its queue
	}
	res := r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "echo"})
	if !res.IsError || !strings.Contains(res.Content[0].Text, "stopped reading") {
		t.Errorf("got %+v", res)
	}
	select {
	case <-p.Done():
	default:
		t.Error("the provider was not dropped")
	}
}

func TestRegisterChecks(t *testing.T) {
	r := New(Options{CheckScope: func(s string) error {
		if s != "s1" {
			return errors.New("no session " + s)
		}
		return nil
	}})
	p := r.Connect("")
	defer p.Close()
	if p.Name() != "a provider" {
		t.Errorf("unnamed provider is %q", p.Name())
	}
	long := strings.Repeat("x", 49)
	cases := []struct {
		scope string
		tools []Tool
		want  string
	}{
		{"", []Tool{echoTool("a")}, "sessionId is required"},
		{"s2", []Tool{echoTool("a")}, "no session s2"},
		{"s1", []Tool{echoTool(long)}, "1 to 48 letters"},
		{"s1", []Tool{echoTool("has space")}, "1 to 48 letters"},
		{"s1", []Tool{echoTool("a"), echoTool("a")}, "listed twice"},
		{"s1", []Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"string"}`)}}, `"type": "object"`},
		{"s1", []Tool{{Name: "a", InputSchema: json.RawMessage(`[1]`)}}, `"type": "object"`},
		{"s1", []Tool{{Name: "a", Description: strings.Repeat("d", MaxDescription+1)}}, "description"},
		{"s1", make([]Tool, MaxTools+1), "at most"},
	}
	for _, c := range cases {
		if _, err := p.Register(c.scope, c.tools); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("register %q %d tools: %v, want %q", c.scope, len(c.tools), err, c.want)
		}
	}
	if len(r.Tools("s1")) != 0 {
		t.Error("a refused registration changed the tools")
	}
	got, err := p.Register("s1", []Tool{{Name: "bare"}})
	if err != nil || string(got[0].InputSchema) != `{"type":"object"}` {
		t.Errorf("a tool without a schema: %+v, %v", got, err)
	}
	if _, err := p.Register("s2", nil); err != nil {
		t.Errorf("removing nothing from an unknown session: %v", err)
	}
}

func TestAnswerChecksContent(t *testing.T) {
	r := New(Options{Timeout: time.Hour})
	p := r.Connect("tab")
	defer p.Close()
	register(t, p, "s1", echoTool("echo"))
	done := make(chan Result)
	go func() { done <- r.Call(t.Context(), CallRequest{Scope: "s1", Tool: "echo"}) }()
	id := nextFrame(t, p)["callId"].(string)
	bad := []Result{
		{Content: []Content{{Type: "image", Data: "!!", MimeType: "image/png"}}},
		{Content: []Content{{Type: "image", Data: "AAAA", MimeType: "text/html"}}},
		{Content: []Content{{Type: "json", JSON: json.RawMessage(`{`)}}},
		{Content: []Content{{Type: "html", Text: "<b>"}}},
	}
	for _, b := range bad {
		if err := p.Answer(id, b); err == nil {
			t.Errorf("answer %+v was taken", b)
		}
	}
	if err := p.Answer(id, Result{Content: []Content{{Type: "text", Text: "fine"}}, IsError: true}); err != nil {
		t.Fatal(err)
	}
	if res := <-done; !res.IsError || res.Content[0].Text != "fine" {
		t.Errorf("got %+v", res)
	}
}

func TestWatchSeesChanges(t *testing.T) {
	r := New(Options{})
	w1, wOther := r.Watch("s1"), r.Watch("s2")
	defer w1.Close()
	defer wOther.Close()
	p := r.Connect("tab")
	register(t, p, "s1", echoTool("echo"))
	<-w1.Changed()
	select {
	case <-wOther.Changed():
		t.Error("a change in s1 woke the watcher of s2")
	default:
	}
	register(t, p, AllScopes, echoTool("x"))
	<-w1.Changed()
	<-wOther.Changed()
	p.Close()
	<-w1.Changed()
	<-wOther.Changed()
}
