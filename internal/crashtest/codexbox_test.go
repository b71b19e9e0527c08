package crashtest

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
)

// codexBox is a sandboxed session whose chat is Codex's (the real, pinned
// CLI against the fake Responses API): the user's CODEX_HOME holds the
// fake provider's config.toml and a login.
type codexBox struct {
	*boxWorld
	openai     *fakeopenai.Server
	userCodex  string
	s          *server
	id         ids
	sessionDir string   // the box's private home's parent, <data>/sandbox/<session>
	env        []string // agentdesk's, besides os.Environ
}

func newCodexBox(t *testing.T, level string) *codexBox {
	t.Helper()
	requireSandbox(t)
	bin := fakeopenai.RequireCodex(t)
	w := newBoxWorld(t)
	c := &codexBox{boxWorld: w, openai: fakeopenai.New(t), userCodex: filepath.Join(w.userHome, ".codex")}
	env := append(w.api.ClaudeEnv(w.userHome), c.openai.CodexEnv(t, filepath.Dir(w.userHome))...)
	if err := os.WriteFile(filepath.Join(c.userCodex, "auth.json"), []byte(`{"OPENAI_API_KEY":"sk-user-login"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c.env = append(env, "AGENTDESK_CODEX="+bin, "AGENTDESK_STALL_AFTER=9m")
	c.s = startServerWith(t, w.data, fakeCLI, c.env...)
	var sess struct {
		ID      string
		Sandbox string
		Workers []struct{ ID, Agent string }
	}
	c.s.mustJSON("POST", "/api/sessions", `{"cwd":"`+w.work+`","agent":"codex","sandbox":"`+level+`","permissionMode":"never"}`, 201, &sess)
	if sess.Sandbox != level || len(sess.Workers) != 1 || sess.Workers[0].Agent != "codex" {
		b, _ := json.Marshal(sess)
		t.Fatalf("session %s", b)
	}
	c.id = ids{session: sess.ID, sdk: sess.Workers[0].ID}
	c.sessionDir = filepath.Join(w.data, "sandbox", sess.ID)
	return c
}

// restart starts agentdesk again on the same data dir, as before.
func (c *codexBox) restart(t *testing.T) *server {
	t.Helper()
	return startServerWith(t, c.data, fakeCLI, c.env...)
}

// thread is the chat's Codex thread (Worker.conversationId).
func (c *codexBox) thread(t *testing.T) string {
	t.Helper()
	var w struct{ ConversationID string }
	c.s.mustJSON("GET", "/api"+c.id.sdkPath(), "", 200, &w)
	if w.ConversationID == "" {
		t.Fatal("the Codex chat has no thread")
	}
	return w.ConversationID
}

// turn sends text to the Codex chat and waits for its result, the chat's
// n-th.
func (c *codexBox) turn(t *testing.T, text string, n int) {
	t.Helper()
	rec := recordSDK(c.s.dial("/ws" + c.id.sdkPath()))
	defer rec.close()
	body, _ := json.Marshal(map[string]string{"content": text})
	c.s.mustJSON("POST", "/api"+c.id.sdkPath()+"/input", string(body), 202, nil)
	if !rec.waitFor(guard, func(_ []message, results int, _ []string) bool { return results >= n }) {
		t.Fatalf("the turn never ended; stderr:\n%s", c.s.stderr)
	}
}

// TestSandboxCodex runs the probe in a sandboxed session through Codex's
// command tool: the box holds it like Claude's (nothing of the host
// written or read, loopback only, no AGENTDESK_* variable), Codex reaches
// its API at the address of its config.toml, with the key its provider
// names; its CODEX_HOME is the box's own, seeded with the user's login,
// where its thread lands (and is resumed from after a restart), and the
// user's CODEX_HOME gets nothing. Stopping the chat (DELETE of the
// worker), and deleting the session, leave no process of the box.
func TestSandboxCodex(t *testing.T) {
	c := newCodexBox(t, "workspace")
	c.turn(t, `bash: sh probe.sh result-codex.txt; echo "home=$CODEX_HOME key=$FAKE_OPENAI_KEY" > env.txt`, 1)
	reqs := c.openai.ResponseRequests()
	if len(reqs) < 2 || !strings.Contains(string(reqs[1].RawBody), "function_call_output") {
		t.Fatalf("the fake API got %d requests; the command's output never went back; stderr:\n%s", len(reqs), c.s.stderr)
	}
	// The turn ended after the command: its result is there, or it failed.
	if _, err := os.Stat(filepath.Join(c.work, "result-codex.txt")); err != nil {
		out := ""
		for _, it := range reqs[1].Input() {
			out += it.OutputText()
		}
		t.Fatalf("the command did not run: %v; its output: %s", err, out)
	}
	c.result(t, c.s, "result-codex.txt")
	boxCodex := filepath.Join(c.sessionDir, "home", ".codex")
	b, err := os.ReadFile(filepath.Join(c.work, "env.txt"))
	if want := "home=" + boxCodex + " key=" + fakeopenai.FakeKey + "\n"; err != nil || string(b) != want {
		t.Errorf("the command saw %q (%v), want %q", b, err, want)
	}
	if b, err := os.ReadFile(filepath.Join(boxCodex, "auth.json")); err != nil || !strings.Contains(string(b), "sk-user-login") {
		t.Errorf("the box's CODEX_HOME has no copy of the user's login: %q %v", b, err)
	}
	if !holdsFile(t, boxCodex, ".jsonl") {
		t.Errorf("no thread file in the box's CODEX_HOME %s", boxCodex)
	}
	if _, err := os.Stat(filepath.Join(c.userCodex, "sessions")); !os.IsNotExist(err) {
		t.Errorf("the chat wrote threads to the user's CODEX_HOME: %v", err)
	}

	// After a restart the chat resumes its thread from the box's home.
	thread := c.thread(t)
	c.s.stop()
	c.s = c.restart(t)
	c.turn(t, "and again in the box", 2)
	if got := c.thread(t); got != thread {
		t.Errorf("after a restart the chat runs thread %s, want %s resumed from the box's CODEX_HOME", got, thread)
	}
	reqs = c.openai.ResponseRequests()
	if last := string(reqs[len(reqs)-1].RawBody); !strings.Contains(last, "result-codex.txt") || !strings.Contains(last, "and again in the box") {
		t.Errorf("the turn after the restart did not continue the thread: %.300s", last)
	}

	// Stopping the chat (DELETE of the worker) ends the box's processes,
	// Codex's included; deleting the session leaves none either.
	ps := descendants(c.s.cmd.Process.Pid)
	if len(ps) == 0 {
		t.Fatal("no process of the session's box runs")
	}
	c.s.mustJSON("DELETE", "/api"+c.id.sdkPath(), "", 204, nil)
	checkEnded(t, "after DELETE of the Codex chat", ps)
	c.s.mustJSON("DELETE", "/api/sessions/"+c.id.session, "", 204, nil)
	if left := descendants(c.s.cmd.Process.Pid); len(left) > 0 {
		t.Errorf("after DELETE of the session %d processes run below agentdesk", len(left))
	}
	c.s.stop()
}

// holdsFile reports whether a file under dir has a name ending in suffix.
func holdsFile(t *testing.T, dir, suffix string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), suffix) {
			found = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestSandboxCodexNet: with workspace+net Codex reaches its API at the
// address of its config.toml over the host's network (nothing bridged),
// and its command runs in the box, with the box's CODEX_HOME.
func TestSandboxCodexNet(t *testing.T) {
	c := newCodexBox(t, "workspace+net")
	c.turn(t, `bash: echo "home=$CODEX_HOME proxy=${HTTPS_PROXY-none}" > env.txt`, 1)
	want := "home=" + filepath.Join(c.sessionDir, "home", ".codex") + " proxy=none\n"
	if b, err := os.ReadFile(filepath.Join(c.work, "env.txt")); err != nil || string(b) != want {
		t.Errorf("the command saw %q (%v), want %q", b, err, want)
	}
	c.s.stop()
}
