package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeopenai"
)

// TestCodexChatsRunInTheSessionsHome runs the binary with the real, pinned
// codex against the fake Responses API, with a fake "user" CODEX_HOME
// (config.toml naming the fake provider, and a login): a session's Codex
// chat runs with CODEX_HOME <data-dir>/codex/<session> (0700), seeded
// with the user's login and config; its thread files land there, not in
// the user's; after a restart the thread is resumed from there; deleting
// the session removes it, and the user's files are untouched.
func TestCodexChatsRunInTheSessionsHome(t *testing.T) {
	bin := fakeopenai.RequireCodex(t)
	api := fakeopenai.New(t)
	dir := t.TempDir()
	env := api.CodexEnv(t, dir)
	user := filepath.Join(dir, "home", ".codex")
	const login = `{"OPENAI_API_KEY":"sk-user-login"}`
	if err := os.WriteFile(filepath.Join(user, "auth.json"), []byte(login), 0o600); err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile(filepath.Join(user, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	work, data := filepath.Join(dir, "work"), filepath.Join(dir, "data")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}

	p := startEnv(t, env, nil, data, "--codex", bin)
	code, b := p.api(t, "POST", "/api/sessions", `{"cwd":"`+work+`","agent":"codex"}`)
	if code != 201 {
		t.Fatalf("create session: %d %s", code, b)
	}
	var s struct {
		ID      string
		Workers []struct{ ID, Agent string }
	}
	if err := json.Unmarshal(b, &s); err != nil || len(s.Workers) != 1 || s.Workers[0].Agent != "codex" {
		t.Fatalf("session %s: %v", b, err)
	}
	sid, wid := s.ID, s.Workers[0].ID
	turn(t, p, sid, wid, "hello home", 1)

	home := filepath.Join(data, "codex", sid)
	if fi, err := os.Stat(home); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the session's CODEX_HOME %s: %v %v", home, fi, err)
	}
	for name, want := range map[string]string{"auth.json": login, "config.toml": string(config)} {
		if got, err := os.ReadFile(filepath.Join(home, name)); err != nil || string(got) != want {
			t.Fatalf("the session's %s: %q %v, want the user's", name, got, err)
		}
	}
	thread := conversation(t, p, sid, wid)
	if !holdsThread(t, home, thread) {
		t.Fatalf("no thread file of %s in the session's CODEX_HOME %s", thread, home)
	}
	if _, err := os.Stat(filepath.Join(user, "sessions")); !os.IsNotExist(err) {
		t.Fatalf("the chat wrote threads to the user's CODEX_HOME: %v", err)
	}

	p.stop(t, syscall.SIGTERM)
	p = startEnv(t, env, nil, data, "--codex", bin)
	defer p.stop(t, syscall.SIGTERM)
	turn(t, p, sid, wid, "and again", 2)
	if got := conversation(t, p, sid, wid); got != thread {
		t.Fatalf("after a restart the chat runs thread %s, want %s resumed", got, thread)
	}
	reqs := api.ResponseRequests()
	if last := reqs[len(reqs)-1]; !strings.Contains(string(last.RawBody), "hello home") {
		t.Fatalf("the turn after the restart did not continue the thread: %s", last.RawBody)
	}

	if code, b := p.api(t, "DELETE", "/api/sessions/"+sid, ""); code != 204 {
		t.Fatalf("delete session: %d %s", code, b)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("the deleted session's CODEX_HOME is still there: %v", err)
	}
	for name, want := range map[string]string{"auth.json": login, "config.toml": string(config)} {
		if got, err := os.ReadFile(filepath.Join(user, name)); err != nil || string(got) != want {
			t.Fatalf("the user's %s changed: %q %v", name, got, err)
		}
	}
}

// turn sends text to the chat and waits until it holds n results.
func turn(t *testing.T, p *proc, sid, wid, text string, n int) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"content": text})
	if code, b := p.api(t, "POST", "/api/sessions/"+sid+"/workers/"+wid+"/input", string(body)); code != 202 {
		t.Fatalf("input: %d %s", code, b)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		_, b := p.api(t, "GET", "/api/sessions/"+sid+"/workers/"+wid+"/messages", "")
		var page struct {
			Messages []struct {
				Message struct {
					Type    string `json:"type"`
					Subtype string `json:"subtype"`
					Result  string `json:"result"`
				} `json:"message"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatalf("messages %s: %v", b, err)
		}
		var results []string
		for _, m := range page.Messages {
			if m.Message.Type == "result" {
				results = append(results, m.Message.Subtype+" "+m.Message.Result)
			}
		}
		if len(results) >= n {
			if got := results[n-1]; !strings.HasPrefix(got, "success Echo: "+text) {
				t.Fatalf("result %q, want the echo of %q; stderr: %s", got, text, p.stderr)
			}
			return
		}
		time.Sleep(50 * time.Millisecond) // polls the stored messages, like waitPID
	}
	t.Fatalf("no result for %q; stderr: %s", text, p.stderr)
}

// conversation is the chat's Codex thread (Worker.conversationId).
func conversation(t *testing.T, p *proc, sid, wid string) string {
	t.Helper()
	code, b := p.api(t, "GET", "/api/sessions/"+sid+"/workers/"+wid, "")
	var w struct {
		ConversationID string `json:"conversationId"`
	}
	if err := json.Unmarshal(b, &w); code != 200 || err != nil || w.ConversationID == "" {
		t.Fatalf("worker: %d %s %v", code, b, err)
	}
	return w.ConversationID
}

// holdsThread reports whether home holds a file of Codex's record of the
// thread (its rollout file, named with the thread id).
func holdsThread(t *testing.T, home, thread string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.Contains(d.Name(), thread) {
			found = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
