package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

func TestCreateSessionValidation(t *testing.T) {
	e := newEnv(t, nil)
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, body, code string
		status           int
	}{
		{"relative cwd", `{"cwd":"tmp","agent":"none"}`, "invalid_field", 400},
		{"missing cwd", `{"cwd":"/no/such/dir","agent":"none"}`, "invalid_field", 400},
		{"file cwd", `{"cwd":"` + file + `","agent":"none"}`, "invalid_field", 400},
		{"no cwd", `{"agent":"none"}`, "invalid_field", 400},
		{"bad agent", `{"cwd":"/","agent":"robot"}`, "invalid_field", 400},
		{"malformed", `{"cwd":`, "invalid_json", 400},
		{"not an object", `[1,2]`, "invalid_field", 400},
		{"wrong type", `{"cwd":5}`, "invalid_field", 400},
		{"unknown field", `{"cdw":"/"}`, "invalid_field", 400},
		{"two objects", `{"cwd":"/","agent":"none"}{}`, "invalid_json", 400},
		{"empty", ``, "invalid_json", 400},
		{"too large", `{"cwd":"/","title":"` + strings.Repeat("x", 2<<20) + `"}`, "too_large", 413},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := e.do("POST", "/api/sessions", c.body)
			if a.status != c.status || a.errCode(t) != c.code {
				t.Fatalf("got %d %s, want %d %s", a.status, a.body, c.status, c.code)
			}
			if strings.Contains(c.name, "cwd") && !strings.Contains(string(a.body), "cwd") {
				t.Fatalf("message does not name the field: %s", a.body)
			}
		})
	}
	if n := len(e.mgr.Sessions()); n != 0 {
		t.Fatalf("bad requests created %d sessions", n)
	}
}

func TestSessionLifecycle(t *testing.T) {
	e := newEnv(t, nil)
	dir := t.TempDir()
	a := e.do("POST", "/api/sessions", map[string]string{"cwd": dir, "title": "first", "agent": "none"})
	if a.status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	// Every field of the API's Session object is present, null or not.
	var raw map[string]any
	a.json(t, &raw)
	for _, k := range []string{"id", "title", "cwd", "createdAt", "updatedAt", "claudeSessionId", "activeAgentWorkerId", "workers"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("session lacks %q: %s", k, a.body)
		}
	}
	var s1 worker.Session
	a.json(t, &s1)
	s2 := e.createSession(t.TempDir())

	var list []worker.Session
	e.do("GET", "/api/sessions", nil).json(t, &list)
	if len(list) != 2 || list[0].ID != s2.ID || list[1].ID != s1.ID {
		t.Fatalf("list is not newest first: %+v", list)
	}
	a = e.do("PATCH", "/api/sessions/"+s1.ID, map[string]string{"title": "renamed"})
	var got worker.Session
	a.json(t, &got)
	if a.status != 200 || got.Title != "renamed" || got.Cwd != dir {
		t.Fatalf("rename: %d %s", a.status, a.body)
	}
	if a := e.do("PATCH", "/api/sessions/"+s1.ID, map[string]string{"title": "  "}); a.status != 400 {
		t.Fatalf("empty title: %d", a.status)
	}
	if a := e.do("GET", "/api/sessions/nope", nil); a.status != 404 || a.errCode(t) != "not_found" {
		t.Fatalf("unknown session: %d %s", a.status, a.body)
	}
	if a := e.do("DELETE", "/api/sessions/"+s1.ID, nil); a.status != 204 {
		t.Fatalf("delete: %d %s", a.status, a.body)
	}
	if a := e.do("GET", "/api/sessions/"+s1.ID, nil); a.status != 404 {
		t.Fatalf("deleted session still there: %d", a.status)
	}
	if a := e.do("DELETE", "/api/sessions/"+s1.ID, nil); a.status != 404 {
		t.Fatalf("second delete: %d", a.status)
	}
}

func TestSessionsSurviveRestart(t *testing.T) {
	e := newEnv(t, nil)
	s := e.createSession(t.TempDir())
	e.do("PATCH", "/api/sessions/"+s.ID, map[string]string{"title": "kept"})
	e.restart()
	var got worker.Session
	a := e.do("GET", "/api/sessions/"+s.ID, nil)
	a.json(t, &got)
	if a.status != 200 || got.Title != "kept" || got.Cwd != s.Cwd {
		t.Fatalf("after restart: %d %s", a.status, a.body)
	}
}

func TestUnknownEndpoint(t *testing.T) {
	e := newEnv(t, nil)
	for _, p := range []string{"/api/nope", "/api/sessions/x/workers/y/nope", "/ws/nope"} {
		if a := e.do("GET", p, nil); a.status != 404 || a.errCode(t) != "not_found" {
			t.Fatalf("%s: %d %s", p, a.status, a.body)
		}
	}
	// The SPA fallback serves the page for app paths but never hides an API 404.
	if a := e.do("GET", "/s/some-session", nil); a.status != 200 || !strings.Contains(string(a.body), "<") {
		t.Fatalf("SPA path: %d", a.status)
	}
}
