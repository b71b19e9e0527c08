package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestCodexSessionLimits: a Codex chat takes the tool rules Codex can
// apply; one it cannot (its own tools taken away, a tool name Codex does
// not ask about) answers 400 naming the field, and nothing is stored or
// changed.
func TestCodexSessionLimits(t *testing.T) {
	e := sdkEnv(t)
	dir := t.TempDir()
	for field, b := range map[string]map[string]any{
		"disallowedTools": {"disallowedTools": []string{"Bash"}},
		"allowedTools":    {"allowedTools": []string{"Read"}},
	} {
		b["cwd"], b["agent"] = dir, "codex"
		a := e.do("POST", "/api/sessions", b)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" || !strings.Contains(string(a.body), field) ||
			!strings.Contains(string(a.body), "Codex chat") {
			t.Errorf("%s: %d %s", field, a.status, a.body)
		}
	}
	var sessions []worker.Session
	if e.do("GET", "/api/sessions", nil).json(t, &sessions); len(sessions) != 0 {
		t.Fatalf("a refused request stored %d sessions", len(sessions))
	}
	var s worker.Session
	a := e.do("POST", "/api/sessions", map[string]any{"cwd": dir, "agent": "codex", "maxTurns": 3, "maxBudgetUsd": 1,
		"appendSystemPrompt": "Be brief.", "allowedTools": []string{"Bash(npm test *)", "Edit", "mcp__gh__*"},
		"disallowedTools": []string{"mcp__gh__delete_repo", "mcp__web__*"}})
	if a.status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	a.json(t, &s)
	w := s.Workers[0]
	path := "/api/sessions/" + s.ID + "/workers/" + w.ID
	if a := e.do("PATCH", path, map[string]any{"disallowedTools": []string{"WebFetch"}}); a.status != http.StatusBadRequest ||
		!strings.Contains(string(a.body), "disallowedTools") {
		t.Errorf("bad patch: %d %s", a.status, a.body)
	}
	var got worker.Info
	if e.do("GET", path, nil).json(t, &got); len(got.DisallowedTools) != 2 || got.MaxTurns != 3 {
		t.Errorf("after a refused patch %+v", got)
	}
}
