package claude_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/agent"
	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// startDriver starts fakeclaude through the driver, as the chat engine
// does; cleanup closes it.
func startDriver(t *testing.T, env ...string) (agent.Conn, agent.Options) {
	t.Helper()
	o := agent.Options{
		Conversation: uuid.NewString(), Dir: t.TempDir(),
		Env:      append(os.Environ(), env...),
		Settings: agent.Settings{Model: "sonnet"}, AllowedTools: []string{"Read", "Bash(npm test)"},
	}
	c, err := claude.NewDriver(claude.Config{Path: fakeBin}).Start(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c, o
}

// events takes batches until stop returns true for an event, and returns
// every event taken.
func events(t *testing.T, c agent.Conn, stop func(agent.Event) bool) []agent.Event {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	var got []agent.Event
	for {
		select {
		case b, ok := <-c.Events():
			if !ok {
				t.Fatalf("events ended after %d; stderr:\n%s", len(got), c.Stderr())
			}
			for _, ev := range b {
				got = append(got, ev)
				if stop(ev) {
					return got
				}
			}
		case <-timer.C:
			t.Fatalf("no matching event after %d", len(got))
		}
	}
}

func isResultEvent(ev agent.Event) bool { return ev.Kind == agent.KindMessage && ev.Type == "result" }

// TestDriverTurn: a start, a turn with a permission request answered, and
// what the engine sees of it: messages and a request, never a line of the
// control protocol.
func TestDriverTurn(t *testing.T) {
	c, o := startDriver(t, "FAKECLAUDE_SCRIPT="+fixture(t, "f_permission_stdio.transcript.jsonl"))
	if c.Capabilities().PermissionMode != "default" || c.Capabilities().Models == nil {
		t.Errorf("capabilities %+v", c.Capabilities())
	}
	if err := c.Send(agent.Input{ID: uuid.NewString(), Text: "run `touch f_allowed.txt`"}); err != nil {
		t.Fatal(err)
	}
	got := events(t, c, func(ev agent.Event) bool { return ev.Kind == agent.KindRequest })
	req := got[len(got)-1].Request
	if req.ID == "" || req.Tool != "Bash" || req.Kind != agent.RequestTool || !strings.Contains(string(req.Input), "touch") {
		t.Fatalf("request %+v", req)
	}
	var inForce agent.Settings
	for _, ev := range got {
		inForce = inForce.Merge(ev.InForce)
	}
	if inForce.PermissionMode == "" {
		t.Errorf("the init message reported nothing in force: %+v", got)
	}
	if err := c.Answer(req.ID, agent.Answer{Allow: true, Input: req.Input}); err != nil {
		t.Fatal(err)
	}
	got = append(got, events(t, c, isResultEvent)...)
	for _, ev := range got {
		if strings.HasPrefix(ev.Type, "control_") || ev.Kind == agent.KindMessage && ev.UUID == "" && ev.Type != "result" {
			t.Errorf("the engine got %s %q", ev.Type, ev.Raw)
		}
	}
	// The start's flags: the conversation, the settings and the tools.
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-c.Events(); ok {
		t.Error("events go on after Close")
	}
	args := c.Stderr()
	for _, want := range []string{"--session-id " + o.Conversation, "--model sonnet", "--allowedTools Read,Bash(npm test)"} {
		if !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(args, `" "`, " "), `"`, ""), want) {
			t.Errorf("args %s lack %q", args, want)
		}
	}
}

// TestDriverSettings: a live change reaches the CLI, and what it prints
// about it comes back as events: the mode in force, and the model's
// replayed local command, which begins no turn.
func TestDriverSettings(t *testing.T) {
	c, _ := startDriver(t)
	ctx := t.Context()
	if err := c.Apply(ctx, agent.Settings{Model: "sonnet"}, agent.Settings{Model: "opus", PermissionMode: "plan"}); err != nil {
		t.Fatal(err)
	}
	got := events(t, c, func(ev agent.Event) bool { return ev.InForce.PermissionMode == "plan" })
	replay := false
	for _, ev := range got {
		replay = replay || ev.NoTurn && ev.Type == "user" && strings.Contains(string(ev.Raw), "Set model to opus")
	}
	if !replay {
		t.Errorf("no replayed set-model record among %d events", len(got))
	}
	// An exited CLI is agent.ErrExited, for every call.
	c.Close(context.Background())
	if err := c.Apply(ctx, agent.Settings{}, agent.Settings{Model: "haiku"}); !errors.Is(err, agent.ErrExited) {
		t.Errorf("apply after exit: %v", err)
	}
	if err := c.Send(agent.Input{Text: "late"}); !errors.Is(err, agent.ErrExited) {
		t.Errorf("send after exit: %v", err)
	}
}

// TestDriverStartFails: a missing CLI is agent.ErrNotFound with the
// install hint; one that exits at start says so with its last words, and
// leaves nothing running.
func TestDriverStartFails(t *testing.T) {
	o := agent.Options{Conversation: uuid.NewString(), Dir: t.TempDir(), Env: os.Environ()}
	_, err := claude.NewDriver(claude.Config{Path: filepath.Join(t.TempDir(), "nope")}).Start(t.Context(), o)
	if !errors.Is(err, agent.ErrNotFound) || !strings.Contains(err.Error(), "install") {
		t.Errorf("missing CLI: %v", err)
	}
	o.Env = append(os.Environ(), "FAKECLAUDE_EXIT_AT_START=3")
	_, err = claude.NewDriver(claude.Config{Path: fakeBin}).Start(t.Context(), o)
	if err == nil || errors.Is(err, agent.ErrNotFound) ||
		!strings.HasPrefix(err.Error(), "claude exited at start-up: ") || !strings.Contains(err.Error(), "exiting at start with code 3") {
		t.Errorf("CLI exiting at start: %v", err)
	}
}

// TestDriverHistory: a session file as the chat imports it, and a missing
// one as a note that names no path.
func TestDriverHistory(t *testing.T) {
	cfg, cwd, conv := t.TempDir(), t.TempDir(), uuid.NewString()
	d := claude.NewDriver(claude.Config{ConfigDir: cfg})
	o := agent.Options{Conversation: conv, Dir: cwd}
	_, err := d.History(o)
	var he *agent.HistoryError
	if !errors.As(err, &he) || !he.Missing || he.Note == "" || strings.Contains(he.Note, cfg) {
		t.Fatalf("no file: %v", err)
	}
	path := claude.SessionFilePath(cfg, cwd, conv)
	lines := `{"type":"user","uuid":"u1","sessionId":"` + conv + `","entrypoint":"cli","message":{"role":"user","content":"hi"}}` + "\n" +
		`{"type":"user","uuid":"u2","message":{"role":"user","content":"<command-name>/cost</command-name>"}}` + "\n" +
		`{"type":"queue-operation"}` + "\n" +
		`{"type":"user","uuid":"u3","message":{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}}` + "\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := d.History(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []agent.HistoryMessage
	st, err := tr.Read(func(m agent.HistoryMessage) error { got = append(got, m); return nil })
	if err != nil || len(got) != 2 || st.Hidden != 1 || st.Skipped != 1 {
		t.Fatalf("read %d messages, %+v, %v", len(got), st, err)
	}
	if !strings.Contains(string(got[0].Raw), `"agentdeskSource":"terminal"`) || !strings.HasSuffix(string(got[0].Raw), "}") {
		t.Errorf("first message %s", got[0].Raw)
	}
	if len(got[1].Files) != 1 || got[1].Files[0].Name != "image-1.png" || strings.Contains(string(got[1].Raw), "base64") {
		t.Errorf("the image stays in the message: %s, files %+v", got[1].Raw, got[1].Files)
	}
	// Following: what is appended later, and only that.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"text","text":"later"}]}}` + "\n")
	f.Close()
	var later []string
	if err := tr.ReadNew(func(m agent.HistoryMessage) error { later = append(later, m.UUID); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(later, ",") != "a1" {
		t.Errorf("appended %v, want a1", later)
	}
	if tr.Written() {
		t.Error("a session file no process writes counts as written")
	}
}
