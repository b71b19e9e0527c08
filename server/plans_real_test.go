package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
)

// TestRealPlanApproval: in plan mode the plan arrives as an ExitPlanMode
// permission request carrying the plan; "keep planning" denies with the
// feedback, which reaches the model; an approval with a setMode update
// changes the CLI's mode and the stored one.
func TestRealPlanApproval(t *testing.T) {
	e, api := realEnv(t)
	c := newChat(e, t.TempDir())
	if a := c.patch(map[string]string{"permissionMode": "plan"}); a.status != 200 {
		t.Fatalf("patch: %d %s", a.status, a.body)
	}
	asked := 0
	c.turn("make a plan", func(req map[string]any) {
		asked++
		in, _ := req["input"].(map[string]any)
		if req["toolName"] != "ExitPlanMode" || in["plan"] != fakeapi.PlanText {
			t.Fatalf("not the plan: %v", req)
		}
		// Rendered on the server, sanitized: markdown yes, script no.
		if h, _ := req["planHtml"].(string); !strings.Contains(h, "<strong>hello</strong>") || strings.Contains(h, "<script") {
			t.Fatalf("planHtml: %q", h)
		}
		c.answer(map[string]any{"type": "permission-response", "requestId": req["requestId"], "behavior": "deny", "message": "add a test step"})
	})
	if asked != 1 || !strings.Contains(lastRequest(t, api), "add a test step") {
		t.Fatalf("the feedback did not reach the model (asked %d): %s", asked, lastRequest(t, api))
	}
	var w worker.Info
	if e.do("GET", c.path(), nil).json(t, &w); w.PermissionMode != "plan" {
		t.Fatalf("keep planning changed the mode: %+v", w)
	}

	frames := c.turn("make a plan again", func(req map[string]any) {
		// updatedPermissions go with an allow only: refused, still pending.
		c.answer(map[string]any{"type": "permission-response", "requestId": req["requestId"], "behavior": "deny",
			"updatedPermissions": []any{map[string]any{"type": "setMode", "mode": "acceptEdits", "destination": "session"}}})
		if f := readJSON(t, c.tab, "error"); f["code"] != "invalid_message" {
			t.Fatalf("bad answer: %v", f)
		}
		c.answer(map[string]any{"type": "permission-response", "requestId": req["requestId"], "behavior": "allow",
			"updatedPermissions": []any{map[string]any{"type": "setMode", "mode": "acceptEdits", "destination": "session"}}})
	})
	if got := reported(frames); len(got) == 0 || got[len(got)-1] != "acceptEdits" {
		t.Fatalf("the CLI reported %v after the approval", got)
	}
	if e.do("GET", c.path(), nil).json(t, &w); w.PermissionMode != "acceptEdits" {
		t.Fatalf("the approval's mode was not stored: %+v", w)
	}
	frames = c.turn("hello after the plan", nil)
	if got := reported(frames); len(got) == 0 || got[0] != "acceptEdits" {
		t.Fatalf("the next turn runs in %v", got)
	}
}

// TestRealAlwaysAllow: an approval with a suggestion's rule stops the
// second prompt for the same command, also in the CLI started after a
// server restart; removing the rule brings the prompt back.
func TestRealAlwaysAllow(t *testing.T) {
	e, _ := realEnv(t)
	cwd := t.TempDir()
	c := newChat(e, cwd)
	const cmd = "bash: touch allowed.txt"
	var suggestion map[string]any
	c.turn(cmd, func(req map[string]any) {
		for _, s := range req["permissionSuggestions"].([]any) {
			if s := s.(map[string]any); s["type"] == "addRules" {
				suggestion = s
			}
		}
		if suggestion == nil {
			t.Fatalf("no addRules suggestion: %v", req)
		}
		suggestion["destination"] = "session" // "in this session"
		c.answer(map[string]any{"type": "permission-response", "requestId": req["requestId"], "behavior": "allow",
			"updatedPermissions": []any{suggestion}})
	})
	if _, err := os.Stat(filepath.Join(cwd, "allowed.txt")); err != nil {
		t.Fatalf("the allowed command did not run: %v", err)
	}
	var s worker.Session
	e.do("GET", "/api/sessions/"+c.sid, nil).json(t, &s)
	if len(s.PermissionRules) != 1 || s.PermissionRules[0].Spec() != "Bash(touch allowed.txt)" || s.PermissionRules[0].Destination != "session" {
		t.Fatalf("rules: %+v", s.PermissionRules)
	}
	c.turn(cmd, nil) // fails on a prompt

	e.restart()
	c.connect()
	c.turn(cmd, nil) // the new CLI got the rule

	rid := s.PermissionRules[0].ID
	if a := e.do("DELETE", "/api/sessions/"+c.sid+"/rules/nope", nil); a.status != 404 {
		t.Fatalf("unknown rule: %d %s", a.status, a.body)
	}
	if a := e.do("DELETE", "/api/sessions/"+c.sid+"/rules/"+rid, nil); a.status != 200 {
		t.Fatalf("remove rule: %d %s", a.status, a.body)
	}
	asked := 0
	c.turn(cmd, func(req map[string]any) {
		asked++
		c.answer(map[string]any{"type": "permission-response", "requestId": req["requestId"], "behavior": "deny"})
	})
	if asked != 1 {
		t.Fatalf("after removing the rule the CLI asked %d times", asked)
	}
	e.do("GET", "/api/sessions/"+c.sid, nil).json(t, &s)
	if len(s.PermissionRules) != 0 {
		t.Fatalf("rules after removal: %+v", s.PermissionRules)
	}
}
