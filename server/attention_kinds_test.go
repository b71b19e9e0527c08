package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

const questionScript = `{"type":"system","subtype":"init","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"control_request","request_id":"req-{{UUID}}","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","input":{"questions":[{"question":"Which  database?","header":"DB","options":[{"label":"Postgres","description":""},{"label":"SQLite","description":""}],"multiSelect":false}]},"tool_use_id":"toolu_q"}}
{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"system","subtype":"init","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
{"type":"control_request","request_id":"req-{{UUID}}","request":{"subtype":"can_use_tool","tool_name":"ExitPlanMode","input":{"plan":"1. do it"},"tool_use_id":"toolu_p"}}
{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"{{SESSION_ID}}","uuid":"{{UUID}}"}
`

// A question and a plan are their own kinds, and a question is answered in
// place with its answers.
func TestAttentionQuestionAndPlan(t *testing.T) {
	e := scriptEnv(t, questionScript)
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	app := e.dial("/ws/app")
	defer app.CloseNow()
	if a := e.do("POST", base+"/input", map[string]string{"content": "which db"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	q := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "question" })[0]
	if q.Title != "Which database?" || q.Request.ToolName != "AskUserQuestion" {
		t.Fatalf("question item: %+v", q)
	}
	answer := map[string]any{"behavior": "allow", "updatedInput": map[string]any{"answers": map[string]string{"Which  database?": "SQLite"}}}
	if a := e.do("POST", base+"/permissions/"+q.Request.RequestID, answer); a.status != http.StatusNoContent {
		t.Fatalf("answer: %d %s", a.status, a.body)
	}
	nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "finished" })
	if a := e.do("POST", base+"/input", map[string]string{"content": "plan it"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	p := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "finished,plan" })[1]
	if p.Title != "Claude has a plan for you to review" {
		t.Fatalf("plan item: %+v", p)
	}
}

// A turn with no progress is listed as stalled.
func TestAttentionStalled(t *testing.T) {
	e := fakeEnv(t, worker.Config{StallAfter: 300 * time.Millisecond}, "FAKECLAUDE_HANG=1")
	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir()}).json(t, &s)
	app := e.dial("/ws/app")
	defer app.CloseNow()
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	if a := e.do("POST", base+"/input", map[string]string{"content": "hang"}); a.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	st := nextAttention(t, app, func(it []attnItem) bool { return kindsOf(it) == "stalled" })[0]
	if st.SessionID != s.ID || st.Title == "" {
		t.Fatalf("stalled item: %+v", st)
	}
}
