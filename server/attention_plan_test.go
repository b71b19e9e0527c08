package server

import (
	"net/http"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// planScript is a fake CLI turn that proposes a plan (ExitPlanMode), waits
// for the answer, then ends.
const planScript = `{"type":"system","subtype":"init","session_id":"{{SESSION_ID}}","permissionMode":"plan","uuid":"{{UUID}}"}
{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"ExitPlanMode","input":{"plan":"1. Do it"}}]},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"control_request","request_id":"req-{{UUID}}","request":{"subtype":"can_use_tool","tool_name":"ExitPlanMode","input":{"plan":"1. Do it"},"tool_use_id":"toolu_1"}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]},"session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
`

// TestAttentionPlanApprovedInAMode: the inbox answers a plan as the chat's
// card does, with the mode the person picked (updatedPermissions over
// REST); updates with a deny are refused and change nothing.
func TestAttentionPlanApprovedInAMode(t *testing.T) {
	e := scriptEnv(t, planScript)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	wid := s.Workers[0].ID
	app := e.dial("/ws/app")
	defer app.CloseNow()
	readJSON(t, app, "sessions-sync")
	base := "/api/sessions/" + s.ID + "/workers/" + wid
	if a := e.do("POST", base+"/input", map[string]string{"content": "plan it"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	it := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "plan" })[0]
	path := base + "/permissions/" + it.Request.RequestID
	setMode := []map[string]string{{"type": "setMode", "mode": "acceptEdits", "destination": "session"}}

	bad := map[string]any{"behavior": "deny", "updatedPermissions": setMode}
	if a := e.do("POST", path, bad); a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" {
		t.Fatalf("updates with a deny: %d %s", a.status, a.body)
	}
	if got := getAttention(t, e); kindsOf(got) != "plan" {
		t.Fatalf("a refused answer changed the list: %+v", got)
	}
	if a := e.do("POST", path, map[string]any{"behavior": "allow", "updatedPermissions": setMode}); a.status != http.StatusNoContent {
		t.Fatalf("approve: %d %s", a.status, a.body)
	}
	nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "finished" })
	var w worker.Info
	e.do("GET", base, nil).json(t, &w)
	if w.PermissionMode != "acceptEdits" {
		t.Fatalf("mode after a plan approved with auto-accept: %q", w.PermissionMode)
	}
}
