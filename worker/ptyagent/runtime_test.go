package ptyagent_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
)

func send(t *testing.T, rt *ptyagent.Runtime, s string) {
	t.Helper()
	if err := rt.SendUser(t.Context(), s); err != nil {
		t.Fatal(err)
	}
}

func TestStartNewConversation(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	f.info.Model = "claude-sonnet-4-5"
	f.cfg.ClaudeConfigDir = filepath.Join(f.home, "config")
	rt := f.start(t, false)
	info := f.snapshot()
	if info.Status != worker.StatusRunning || info.Cols != ptyagent.DefaultCols || info.Rows != ptyagent.DefaultRows {
		t.Fatalf("worker %+v, want running at the default size", info)
	}
	if len(f.setIDs) != 1 || rt.ConversationID() != f.setIDs[0] {
		t.Fatalf("recorded conversations %v, runtime %q", f.setIDs, rt.ConversationID())
	}
	if procs, err := f.store.Processes(); err != nil || procs["w1"].Pid == 0 {
		t.Fatalf("process groups %v, %v", procs, err)
	}
	c := attach(t, rt, "")
	want := "ARGS: --session-id " + rt.ConversationID() + " --model claude-sonnet-4-5"
	c.Until(t, waitFor, hasText("❯"))
	real, _ := filepath.EvalSymlinks(f.cwd)
	for _, s := range []string{
		want,
		"ENV: TERM=xterm-256color CONFIG=" + f.cfg.ClaudeConfigDir,
		"CWD: " + f.cwd,
		"SIZE: 32 120",
		"\x1b[2magentdesk: marked onboarding as complete, marked " + real + " as trusted in " +
			filepath.Join(f.cfg.ClaudeConfigDir, ".claude.json") + " so Claude Code starts at its prompt\x1b[0m\r\n",
	} {
		if !c.Has(s) {
			t.Errorf("output lacks %q:\n%s", s, c.Out.String())
		}
	}
	if strings.Index(c.Out.String(), "agentdesk: marked") > strings.Index(c.Out.String(), "ARGS:") {
		t.Error("the notice came after the CLI started")
	}
	send(t, rt, "hello there")
	c.Until(t, waitFor, hasText("You said: hello there"))
	if _, err := rt.HandleClient(t.Context(), []byte(`{"type":"input","data":"typed\r"}`)); err != nil {
		t.Fatal(err)
	}
	c.Until(t, waitFor, hasText("You said: typed"))
	if got := rt.Activity(); got != worker.ActivityIdle {
		t.Errorf("activity %s at the prompt", got)
	}
}

// The conversation continues with --resume when agentdesk's record says
// it has started, and starts under the same id when no message was ever
// sent (TestConversationFlag: when the record is wrong).
func TestConversationIDs(t *testing.T) {
	for _, started := range []bool{true, false} {
		t.Run(fmt.Sprint("started ", started), func(t *testing.T) {
			f := newFixture(t, writeScript(t, fakeClaude))
			id := "0195f3c4-1111-7000-8000-000000000001"
			f.sess.ClaudeSessionID, f.sess.ClaudeSessionStarted = &id, started
			rt := f.start(t, false)
			flag := map[bool]string{true: "--resume ", false: "--session-id "}[started]
			attach(t, rt, "").Until(t, waitFor, hasText("ARGS: "+flag+id+"\r\n"))
			if len(f.setIDs) != 0 || rt.ConversationID() != id {
				t.Fatalf("set %v, runtime %q", f.setIDs, rt.ConversationID())
			}
		})
	}
}

// A second start in the same place finds the config seeded: no notice.
func TestSeedNoticeOnlyOnChange(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	first := f.start(t, false)
	attach(t, first, "").Until(t, waitFor, hasText("❯"))
	if err := first.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.info.ID = "w2"
	c := attach(t, f.start(t, false), "")
	c.Until(t, waitFor, hasText("❯"))
	if c.Has("agentdesk:") {
		t.Fatalf("notice on an unchanged config:\n%s", c.Out.String())
	}
	if fi, err := os.Stat(filepath.Join(f.home, ".claude.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("config %v, %v", fi, err)
	}
}

func TestActivityAndCancel(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	rt := f.start(t, false)
	c := attach(t, rt, "")
	c.Until(t, waitFor, hasText("❯"))
	if ok, err := rt.Cancel(t.Context()); ok || err != nil {
		t.Fatalf("cancel while idle: %v, %v", ok, err)
	}
	send(t, rt, "work")
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "active" })
	f.waitInfo(t, activityIs(worker.ActivityActive))
	if ok, err := rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("cancel while active: %v, %v", ok, err)
	}
	c.Until(t, waitFor, hasText("Interrupted"))
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "idle" })
	f.waitInfo(t, activityIs(worker.ActivityIdle))
	// A tab attaching now gets the activity after history-end.
	late := attach(t, rt, "")
	if n := len(late.Ctrl); n < 2 || late.Ctrl[n-2]["type"] != "history-end" || late.Ctrl[n-1]["type"] != "activity" || late.Ctrl[n-1]["state"] != "idle" {
		t.Fatalf("replay frames %v", late.Ctrl)
	}
}

func TestAsking(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	rt := f.start(t, false)
	c := attach(t, rt, "")
	c.Until(t, waitFor, hasText("❯"))
	send(t, rt, "ask")
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "asking" })
	if got := rt.Activity(); got != worker.ActivityAsking {
		t.Fatalf("Activity() %s", got)
	}
	if err := rt.SendUser(t.Context(), "yes please"); !errors.Is(err, worker.ErrAgentBusy) {
		t.Fatalf("send while asking: %v", err)
	}
	if ok, err := rt.Cancel(t.Context()); !ok || err != nil {
		t.Fatalf("cancel while asking: %v, %v", ok, err)
	}
	c.Until(t, waitFor, hasText("Denied"))
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "idle" })
}

func TestSendUserText(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	rt := f.start(t, false)
	c := attach(t, rt, "")
	c.Until(t, waitFor, hasText("❯"))
	tests := []struct {
		content string
		err     error
	}{
		{"", worker.ErrInvalid},
		{" \r\n\t", worker.ErrInvalid},
		{"\x03\x1b", worker.ErrInvalid},
		{strings.Repeat("x", ptyagent.MaxUserMessage+1), worker.ErrInvalid},
	}
	for _, tt := range tests {
		if err := rt.SendUser(t.Context(), tt.content); !errors.Is(err, tt.err) {
			t.Errorf("SendUser(%.20q): %v, want %v", tt.content, err, tt.err)
		}
	}
	// Control characters are dropped, so they cannot press keys.
	send(t, rt, "a\x03b\x1bc\r\n")
	c.Until(t, waitFor, hasText("You said: abc\r"))
	// Lines go in as one bracketed paste (the fake's read sees the markers).
	send(t, rt, "one\ntwo")
	c.Until(t, waitFor, hasText("You said: \x1b[200~one"))
}

func TestResize(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	f.info.Cols, f.info.Rows = 80, 24
	rt := f.start(t, false)
	c := attach(t, rt, "")
	c.Until(t, waitFor, hasText("SIZE: 24 80"))
	if _, err := rt.HandleClient(t.Context(), []byte(`{"type":"resize","cols":100,"rows":40}`)); err != nil {
		t.Fatal(err)
	}
	send(t, rt, "size")
	c.Until(t, waitFor, hasText("SIZE: 40 100"))
	if info := f.snapshot(); info.Cols != 100 || info.Rows != 40 {
		t.Fatalf("worker size %dx%d, want 100x40", info.Cols, info.Rows)
	}
}

func TestBadClientFrames(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	rt := f.start(t, false)
	tests := []struct{ frame, mentions string }{
		{`not json`, "JSON"},
		{`[1]`, "not a JSON object"},
		{`{}`, "no type"},
		{`{"type":"user-message","content":"x"}`, "user-message"},
		{`{"type":"input"}`, "data"},
		{`{"type":"input","data":5}`, "data"},
		{`{"type":"resize","cols":80}`, "rows"},
		{`{"type":"resize","cols":0,"rows":10}`, "cols"},
		{`{"type":"resize","cols":80,"rows":1001}`, "rows"},
	}
	for _, tt := range tests {
		t.Run(tt.frame, func(t *testing.T) {
			_, err := rt.HandleClient(t.Context(), []byte(tt.frame))
			if !errors.Is(err, worker.ErrInvalid) || !strings.Contains(err.Error(), tt.mentions) {
				t.Fatalf("error %v, want ErrInvalid naming %q", err, tt.mentions)
			}
		})
	}
}
