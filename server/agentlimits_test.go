package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestSessionLimits: limits and the appended prompt are set when the
// session is created and changed later with PATCH; bad values answer
// 400 naming the field and change nothing.
func TestSessionLimits(t *testing.T) {
	e := sdkEnv(t)
	dir, extra := t.TempDir(), t.TempDir()
	bad := map[string]map[string]any{
		"maxTurns":           {"maxTurns": -1},
		"maxBudgetUsd":       {"maxBudgetUsd": -0.5},
		"addDirs":            {"addDirs": []string{"relative/dir"}},
		"disallowedTools":    {"disallowedTools": []string{"Bash(a,b)"}},
		"allowedTools":       {"allowedTools": []string{"not a tool"}},
		"appendSystemPrompt": {"appendSystemPrompt": strings.Repeat("x", 33<<10)},
	}
	for field, b := range bad {
		b["cwd"] = dir
		a := e.do("POST", "/api/sessions", b)
		if a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" || !strings.Contains(string(a.body), field) {
			t.Errorf("%s: %d %s", field, a.status, a.body)
		}
	}
	var sessions []worker.Session
	if e.do("GET", "/api/sessions", nil).json(t, &sessions); len(sessions) != 0 {
		t.Fatalf("a refused request stored %d sessions", len(sessions))
	}
	if a := e.do("POST", "/api/sessions", map[string]any{"cwd": dir, "agent": "none", "maxTurns": 3}); a.status != http.StatusBadRequest {
		t.Errorf("limits without an agent: %d %s", a.status, a.body)
	}

	var s worker.Session
	a := e.do("POST", "/api/sessions", map[string]any{"cwd": dir, "appendSystemPrompt": "Answer in French.", "maxTurns": 5,
		"maxBudgetUsd": 1.5, "allowedTools": []string{"Read", "mcp__agentdesk__*"}, "disallowedTools": []string{"Bash(rm *)"}, "addDirs": []string{extra + "/"}})
	if a.status != http.StatusCreated {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	a.json(t, &s)
	w := s.Workers[0]
	if w.AppendSystemPrompt != "Answer in French." || w.MaxTurns != 5 || w.MaxBudgetUSD != 1.5 || len(w.AllowedTools) != 2 ||
		w.DisallowedTools[0] != "Bash(rm *)" || w.AddDirs[0] != extra {
		t.Fatalf("worker %+v", w)
	}
	path := "/api/sessions/" + s.ID + "/workers/" + w.ID
	if a := e.do("PATCH", path, map[string]any{"maxTurns": 20000}); a.status != http.StatusBadRequest || !strings.Contains(string(a.body), "maxTurns") {
		t.Errorf("bad patch: %d %s", a.status, a.body)
	}
	var got worker.Info
	a = e.do("PATCH", path, map[string]any{"maxTurns": 0, "maxBudgetUsd": 3, "appendSystemPrompt": "Be brief.", "addDirs": []string{}})
	if a.status != http.StatusOK {
		t.Fatalf("patch: %d %s", a.status, a.body)
	}
	a.json(t, &got)
	if got.MaxTurns != 0 || got.MaxBudgetUSD != 3 || got.AppendSystemPrompt != "Be brief." || got.AddDirs != nil || len(got.DisallowedTools) != 1 {
		t.Errorf("after patch %+v", got)
	}
	e.restart()
	if e.do("GET", path, nil).json(t, &got); got.MaxBudgetUSD != 3 || got.AppendSystemPrompt != "Be brief." {
		t.Errorf("after restart %+v", got)
	}
}
