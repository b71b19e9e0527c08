package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
)

// TestRealSwitchWithConfigWrapper runs the real CLI through a --claude
// wrapper that sets its own CLAUDE_CONFIG_DIR, so its session files are
// not where agentdesk would look. The terminal view must still resume the
// conversation (agentdesk decides from its own record), and the chat it
// switches back to must say, in a stored message, why the earlier turns
// are not shown, while Claude keeps the whole context.
func TestRealSwitchWithConfigWrapper(t *testing.T) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	cwd, own := t.TempDir(), t.TempDir()
	seedWrapperConfig(t, own, cwd)
	wrapper := filepath.Join(t.TempDir(), "claude")
	script := "#!/bin/sh\nexport CLAUDE_CONFIG_DIR='" + own + "'\nexec '" + claudePath + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(wrapper), worker.KindPTYAgent: ptyagent.New},
		cfg:   worker.Config{ClaudePath: wrapper, ChildEnv: api.ClaudeEnv(t.TempDir())}}
	e.start()
	t.Cleanup(e.stop)

	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "agent": "sdk"}).json(t, &s)
	chat := s.Workers[0]
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + chat.ID)
	readJSON(t, tab, "history-end")
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+chat.ID+"/input", map[string]string{"content": "hello from chat"}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	stored(t, tab)
	tab.CloseNow()
	if files, _ := filepath.Glob(filepath.Join(own, "projects", "*", "*.jsonl")); len(files) != 1 {
		t.Fatalf("the wrapper's config dir holds %d session files, want 1", len(files))
	}

	// To the terminal: the CLI resumes the conversation (with
	// --session-id it would exit "already in use").
	var sw struct{ Worker worker.Info }
	switchTo(e, s.ID, "pty-agent", false).json(t, &sw)
	_, rt, err := e.mgr.Runtime(s.ID, sw.Worker.ID)
	if err != nil {
		t.Fatal(err)
	}
	pty := rt.(*ptyagent.Runtime)
	waitScreen(t, pty, func(sc string) bool {
		if info, _ := e.mgr.Worker(s.ID, sw.Worker.ID); info.Status != worker.StatusRunning {
			t.Fatalf("the terminal's CLI is %s: %v\n%s", info.Status, info.Error, sc)
		}
		return strings.Contains(sc, "\n❯") && pty.Activity() == worker.ActivityIdle
	})
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/input", map[string]string{"content": "from the terminal"}); a.status != 202 {
		t.Fatalf("pty input: %d %s", a.status, a.body)
	}
	waitScreen(t, pty, func(sc string) bool {
		return strings.Contains(sc, "Echo: from the terminal") && pty.Activity() == worker.ActivityIdle
	})
	if last := lastRequest(t, api); !strings.Contains(last, "hello from chat") {
		t.Fatalf("the terminal's request lacks the chat turn: %s", last)
	}

	// Back to the chat: the history cannot be imported, and the chat says
	// so in a message that a tab opened later still gets.
	switchTo(e, s.ID, "sdk", false).json(t, &sw)
	path := "/ws/sessions/" + s.ID + "/workers/" + sw.Worker.ID
	tab = e.dial(path)
	for {
		f := readJSON(t, tab, "sdk-message")
		if b, _ := json.Marshal(f); strings.Contains(string(b), `"subtype":"agentdesk_import_failed"`) {
			break
		}
	}
	tab.CloseNow()
	var page struct{ Messages []json.RawMessage }
	e.do("GET", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/messages", nil).json(t, &page)
	if len(page.Messages) != 1 || !strings.Contains(string(page.Messages[0]), "CLAUDE_CONFIG_DIR") {
		t.Fatalf("the new chat's history: %s", page.Messages)
	}
	tab = e.dial(path)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/input", map[string]string{"content": "after switch"}); a.status != 202 {
		t.Fatalf("input after switch: %d %s", a.status, a.body)
	}
	stored(t, tab)
	if last := lastRequest(t, api); !strings.Contains(last, "hello from chat") || !strings.Contains(last, "from the terminal") {
		t.Fatalf("the chat's request after switching back lacks context: %s", last)
	}
}

// seedWrapperConfig writes what a user's own, onboarded config holds: the
// interactive CLI then starts at its prompt (claude-cli.md §9).
func seedWrapperConfig(t *testing.T, dir, cwd string) {
	t.Helper()
	real, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{real: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
		"customApiKeyResponses":  map[string]any{"approved": []string{fakeapi.FakeKey}, "rejected": []string{}},
		"lastOnboardingVersion":  "2.1.330", "lastReleaseNotesSeen": "2.1.330",
		"officialMarketplaceAutoInstallAttempted": true, "theme": "dark",
	}
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, ".claude.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
