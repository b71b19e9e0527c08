package ptyagent_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
)

// These tests run the real CLI (node_modules/.bin/claude) against the fake
// Messages API, in a temp HOME and CLAUDE_CONFIG_DIR. They skip loudly
// when it is not installed, and fail then under CI=true.

// startupTexts are words of the start-up screens seeding must prevent
// (h_pty_unseeded_home.txt, h_pty_trust_dialog.txt, h_pty_api_key_dialog.txt).
// The CLI places words with cursor moves, so they are matched one by one.
var startupTexts = []string{"Welcome", "Unable", "trust", "Detected"}

// waitPrompt waits until the CLI shows its prompt box, idle. It fails at
// once when the CLI exits instead.
func waitPrompt(t *testing.T, f *fixture, rt *ptyagent.Runtime) {
	t.Helper()
	poll(t, func() bool {
		if st := f.snapshot().Status; st != worker.StatusRunning {
			t.Fatalf("the CLI is %s before its prompt came up:\n%s", st, rt.Screen())
		}
		s := rt.Screen()
		return strings.Contains(s, "\n❯") && strings.Contains(s, "────") && ptyagent.ClassifyScreen(s) == worker.ActivityIdle
	})
}

// startReal starts the real CLI against a fake API, at its prompt.
func startReal(t *testing.T) (*fixture, *fakeapi.Server, *ptyagent.Runtime, *client) {
	t.Helper()
	path := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	f := newFixture(t, path)
	f.cfg.ChildEnv = api.ClaudeEnv(f.home)
	rt := f.start(t, false)
	c := attach(t, rt, "")
	waitPrompt(t, f, rt)
	return f, api, rt, c
}

// converse sends prompt and waits for the reply's text on screen and for
// the activity to go active, then idle.
func converse(t *testing.T, rt *ptyagent.Runtime, c *client, prompt, reply string) {
	t.Helper()
	from := len(activities(c))
	send(t, rt, prompt)
	poll(t, func() bool { return strings.Contains(rt.Screen(), reply) })
	c.Until(t, waitFor, func(c *client) bool {
		seen := activities(c)[from:]
		return slices.Contains(seen, "active") && lastActivity(c) == "idle"
	})
}

func TestRealCLINewThenResume(t *testing.T) {
	f, api, first, c := startReal(t)
	if !c.Has("agentdesk: marked onboarding as complete") || !c.Has("approved the key in ANTHROPIC_API_KEY") {
		t.Errorf("no seeding notice in %q", c.Out.String()[:min(c.Out.Len(), 400)])
	}
	converse(t, first, c, "hello there", "Echo: hello there")
	_, cli, _ := strings.Cut(c.Out.String(), "starts at its prompt\x1b[0m\r\n") // after agentdesk's notice
	for _, s := range startupTexts {
		if strings.Contains(cli, s) {
			t.Errorf("a start-up screen showed %q:\n%s", s, first.Screen())
		}
	}
	reqs := api.MessageRequests()
	if len(reqs) == 0 || reqs[len(reqs)-1].SessionID() != first.ConversationID() {
		t.Fatalf("requests %d, want the conversation %s", len(reqs), first.ConversationID())
	}
	firstCount := len(reqs[len(reqs)-1].Messages())
	if err := first.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}

	// The next agent worker of the session resumes the conversation.
	f.info = worker.Info{ID: "w2", SessionID: "s1", Kind: worker.KindPTYAgent}
	second := f.start(t, false)
	if second.ConversationID() != first.ConversationID() || len(f.setIDs) != 1 {
		t.Fatalf("second conversation %q, first %q, recorded %v", second.ConversationID(), first.ConversationID(), f.setIDs)
	}
	c2 := attach(t, second, "")
	waitPrompt(t, f, second)
	if c2.Has("agentdesk:") {
		t.Error("seeding notice although nothing changed")
	}
	converse(t, second, c2, "and again", "Echo: and again")
	last := api.MessageRequests()[len(api.MessageRequests())-1]
	var texts []string
	for _, m := range last.Messages() {
		texts = append(texts, m.Text())
	}
	all := strings.Join(texts, "\n")
	if len(last.Messages()) <= firstCount || !strings.Contains(all, "hello there") || last.SessionID() != first.ConversationID() {
		t.Fatalf("resumed request: %d messages (first had %d), session %s, text %q",
			len(last.Messages()), firstCount, last.SessionID(), all)
	}
}

// AskUserQuestion shows its picker in every permission mode: the worker is
// asking, refuses typed messages, and goes back to work once answered.
func TestRealCLIAskUserQuestion(t *testing.T) {
	_, _, rt, c := startReal(t)
	send(t, rt, "ask me a question")
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "asking" })
	if !strings.Contains(rt.Screen(), "Which color do you prefer?") {
		t.Fatalf("asking without the picker:\n%s", rt.Screen())
	}
	if err := rt.SendUser(t.Context(), "blue"); !errors.Is(err, worker.ErrAgentBusy) {
		t.Fatalf("send while asking: %v", err)
	}
	key := func(k string) {
		if _, err := rt.HandleClient(t.Context(), []byte(`{"type":"input","data":"`+k+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	key(`\u001b[B`) // Down to Blue
	poll(t, func() bool { return strings.Contains(rt.Screen(), "❯ 2. Blue") })
	// The picker drops an Enter that comes right after it appeared (seen:
	// 50 ms after, dropped; 1 s after, taken), and nothing on screen says
	// when it starts listening: press Enter until the answer shows.
	answered := func() bool { return strings.Contains(rt.Screen(), "→ Blue") }
	for i := 0; i < 20 && !answered(); i++ {
		key(`\r`)
		waitUpTo(500*time.Millisecond, answered)
	}
	if !answered() {
		t.Fatalf("the answer did not register:\n%s", rt.Screen())
	}
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "idle" })
}

// Cancel presses Escape during a slow reply: the CLI closes the stream
// and comes back to its prompt.
func TestRealCLICancel(t *testing.T) {
	_, api, rt, c := startReal(t)
	send(t, rt, "please be slow")
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "active" })
	poll(t, func() bool { return strings.Contains(rt.Screen(), "slow chunk 01") })
	if ok, err := rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("cancel: %v, %v", ok, err)
	}
	poll(t, func() bool { return strings.Contains(rt.Screen(), "Interrupted") })
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "idle" })
	poll(t, func() bool { return api.Disconnects() == 1 })
	if ok, _ := rt.Cancel(t.Context()); ok {
		t.Error("cancel while idle reported true")
	}
}
