package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/agentbox"
	"github.com/agentdesk/agentdesk/worker/gitdiff"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

// boxEnv is a server with the real CLI against api, where sandboxed
// sessions run with bwrap and socat (skipped loudly without them, failed
// with CI=true), and the claude CLI's needs as main wires them.
func boxEnv(t *testing.T, api *fakeapi.Server, stall time.Duration) (*env, string) {
	t.Helper()
	tools := sandbox.Probe(t.Context(), os.Getenv("PATH"))
	if err := tools.Check(sandbox.Workspace); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must run the sandbox tests: %v", err)
		}
		t.Skipf("!!! SKIPPING: the sandbox tests did NOT run: %v !!!", err)
	}
	userHome := t.TempDir()
	cli := fakeapi.RequireClaude(t)
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(cli), worker.KindPTYAgent: ptyagent.New,
			worker.KindTerminal: terminal.New, worker.KindGitDiff: gitdiff.New},
		cfg: worker.Config{ClaudePath: cli, ChildEnv: api.ClaudeEnv(userHome), StallAfter: stall}}
	e.sandbox = &worker.SandboxOptions{Dir: filepath.Join(e.dir, "sandbox"), Tools: tools, Agents: []worker.AgentBox{agentbox.Claude(e.cfg)}}
	e.start()
	t.Cleanup(e.stop)
	return e, userHome
}

// TestRealSandboxSwitch: in a sandboxed session the conversation (its
// first message with an image) moves from the chat to the terminal UI and
// back: the CLI's files are in the box's config dir, where the chat
// imports the terminal's turn from, and none in the user's; Claude keeps
// the context both ways.
func TestRealSandboxSwitch(t *testing.T) {
	api := fakeapi.New(t)
	e, userHome := boxEnv(t, api, 0)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "sdk", "sandbox": "workspace"}).json(t, &s)
	chat := s.Workers[0]
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + chat.ID)
	readJSON(t, tab, "history-end")
	png := att("red.png", "image/png", redPNG)
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+chat.ID+"/input", map[string]any{"content": "hello from chat", "attachments": []any{png}}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	stored(t, tab)
	tab.CloseNow()
	if last := lastRequest(t, api); !strings.Contains(last, `"image"`) {
		t.Fatalf("the attachment did not reach the API: %s", last)
	}
	boxFiles, _ := filepath.Glob(filepath.Join(e.dir, "sandbox", s.ID, "home", ".claude", "projects", "*", "*.jsonl"))
	userFiles, _ := filepath.Glob(filepath.Join(userHome, ".claude", "projects", "*", "*.jsonl"))
	if len(boxFiles) != 1 || len(userFiles) != 0 {
		t.Fatalf("session files: %d in the box's config dir, %d in the user's", len(boxFiles), len(userFiles))
	}

	var sw struct{ Worker worker.Info }
	switchTo(e, s.ID, "pty-agent", false).json(t, &sw)
	_, rt, err := e.mgr.Runtime(s.ID, sw.Worker.ID)
	if err != nil {
		t.Fatal(err)
	}
	pty := rt.(*ptyagent.Runtime)
	waitScreen(t, pty, func(sc string) bool { return strings.Contains(sc, "\n❯") && pty.Activity() == worker.ActivityIdle })
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/input", map[string]string{"content": "from the terminal"}); a.status != 202 {
		t.Fatalf("pty input: %d %s", a.status, a.body)
	}
	waitScreen(t, pty, func(sc string) bool {
		return strings.Contains(sc, "Echo: from the terminal") && pty.Activity() == worker.ActivityIdle
	})
	if last := lastRequest(t, api); !strings.Contains(last, "hello from chat") {
		t.Fatalf("the terminal's request lacks the chat turn: %s", last)
	}

	switchTo(e, s.ID, "sdk", false).json(t, &sw)
	tab = e.dial("/ws/sessions/" + s.ID + "/workers/" + sw.Worker.ID)
	defer tab.CloseNow()
	var history strings.Builder
	for {
		f := readJSON(t, tab, "")
		b, _ := json.Marshal(f)
		history.Write(b)
		if strings.Contains(string(b), `"subtype":"agentdesk_imported"`) {
			break
		}
	}
	if h := history.String(); !strings.Contains(h, "from the terminal") || !strings.Contains(h, "hello from chat") {
		t.Fatalf("the new chat does not show the whole conversation: %s", h)
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+sw.Worker.ID+"/input", map[string]string{"content": "after switch"}); a.status != 202 {
		t.Fatalf("input after switch: %d %s", a.status, a.body)
	}
	stored(t, tab)
	if last := lastRequest(t, api); !strings.Contains(last, "hello from chat") || !strings.Contains(last, "from the terminal") {
		t.Fatalf("the chat's request after switching back lacks context: %s", last)
	}
}

// TestRealSandboxWatchdog: in a box (where the CLI's tools carry no
// marker) a tool that works without printing keeps the turn from
// stalling; a silent one stalls it. The git-diff worker and the Files
// tab, outside the box, see what the tool wrote.
func TestRealSandboxWatchdog(t *testing.T) {
	api := fakeapi.New(t)
	// Three seconds: a tool at nice 10 on a loaded 2-core machine still
	// gets a clock tick of CPU in that long (at one second it sometimes did not).
	e, _ := boxEnv(t, api, 3*time.Second)
	repo := gitRepo(t)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": repo, "agent": "sdk", "sandbox": "workspace", "permissionMode": "bypassPermissions"}).json(t, &s)
	chat := s.Workers[0]
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + chat.ID)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	// Eight seconds of CPU and no output, then a file: never a stall.
	busy := `bash: timeout 8 sh -c 'while :; do :; done'; echo done > busy.txt`
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+chat.ID+"/input", map[string]string{"content": busy}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	for {
		f := readJSON(t, tab, "")
		if f["type"] == "activity" && f["state"] == "stalled" {
			t.Fatal("a turn whose tool works was marked stalled")
		}
		if m, _ := f["message"].(map[string]any); f["type"] == "sdk-message" && m["type"] == "result" {
			break
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "busy.txt")); err != nil {
		t.Fatalf("the tool did not run: %v", err)
	}
	var diff gitdiff.Diff
	for _, w := range sessionWorkers(t, e, s.ID) {
		if w.Kind == worker.KindGitDiff {
			e.do("GET", "/api/sessions/"+s.ID+"/workers/"+w.ID+"/diff", nil).json(t, &diff)
		}
	}
	if len(diff.Files) != 1 || diff.Files[0].Path != "busy.txt" {
		t.Errorf("the git-diff worker shows %+v, want busy.txt", diff.Files)
	}
	// The Files tab, also outside the box, reads it.
	if r := e.do("GET", "/api/sessions/"+s.ID+"/fs/file?path=busy.txt", nil); r.status != 200 || string(r.body) != "done\n" {
		t.Errorf("the Files tab reads busy.txt as %d %q", r.status, r.body)
	}
	// A tool that only waits: the turn stalls.
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+chat.ID+"/input", map[string]string{"content": "bash: tail -f /dev/null"}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	for {
		if f := readJSON(t, tab, "activity"); f["state"] == "stalled" {
			break
		}
	}
}

func sessionWorkers(t *testing.T, e *env, sid string) []worker.Info {
	t.Helper()
	var s worker.Session
	e.do("GET", "/api/sessions/"+sid, nil).json(t, &s)
	return s.Workers
}
