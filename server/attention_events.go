package server

import (
	"encoding/json"
	"strings"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// appEvent holds the fields of the /ws/app frames the attention list needs.
type appEvent struct {
	Type      string           `json:"type"`
	SessionID string           `json:"sessionId"`
	WorkerID  string           `json:"workerId"`
	Activity  *worker.Activity `json:"activity"`
	Worker    *worker.Info     `json:"worker"`
	Sessions  []worker.Session `json:"sessions"`
}

// observe notes activity changes; a turn that ends (a busy activity becomes
// idle) is marked unseen until someone opens its session.
func (a *attention) observe(data []byte) {
	var e appEvent
	if json.Unmarshal(data, &e) != nil {
		return
	}
	switch e.Type {
	case wire.TypeSessionsSync:
		for _, s := range e.Sessions {
			for _, w := range s.Workers {
				a.note(w.SessionID, w.ID, w.Activity)
			}
		}
	case wire.TypeWorkerActivity:
		a.note(e.SessionID, e.WorkerID, e.Activity)
	case wire.TypeWorkerCreated, wire.TypeWorkerUpdated:
		if e.Worker != nil {
			a.note(e.Worker.SessionID, e.Worker.ID, e.Worker.Activity)
		}
	}
}

func (a *attention) note(sid, wid string, act *worker.Activity) {
	a.mu.Lock()
	defer a.mu.Unlock()
	next := worker.Activity("")
	if act != nil {
		next = *act
	}
	prev, seen := a.last[wid]
	a.last[wid] = next
	if seen && busy(prev) && next == worker.ActivityIdle {
		a.marks.markUnseen(sid, wid, a.now())
	}
}

func busy(a worker.Activity) bool {
	return a == worker.ActivityActive || a == worker.ActivityStalled || a == worker.ActivityAsking
}

// seen clears the unseen marks of a session's workers.
func (a *attention) seen(sid string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.marks.clearSession(sid); err != nil {
		return err
	}
	a.refreshLocked()
	return nil
}

// pendingLister is a runtime with permission requests waiting (sdk).
type pendingLister interface {
	PendingRequests() []json.RawMessage
}

// requests lists a worker's waiting permission requests, each its item.
func (a *attention) requests(base attentionItem) []attentionItem {
	_, rt, err := a.mgr.Runtime(base.SessionID, base.WorkerID)
	pl, ok := rt.(pendingLister)
	if err != nil || !ok {
		it := base
		it.Kind, it.Title = attnPermission, "Waiting for your answer"
		return []attentionItem{it}
	}
	var out []attentionItem
	for _, f := range pl.PendingRequests() {
		var p wire.Permission
		if json.Unmarshal(f, &p) != nil {
			continue
		}
		it := base
		it.Kind, it.Title, it.Request = requestKind(p.ToolName), requestTitle(p), f
		out = append(out, it)
	}
	return out
}

func requestKind(tool string) string {
	switch tool {
	case "AskUserQuestion":
		return attnQuestion
	case "ExitPlanMode":
		return attnPlan
	}
	return attnPermission
}

// requestTitle is a one-line summary: the question, the command, the file.
func requestTitle(p wire.Permission) string {
	var in map[string]any
	_ = json.Unmarshal(p.Input, &in)
	switch p.ToolName {
	case "AskUserQuestion":
		if qs, ok := in["questions"].([]any); ok && len(qs) > 0 {
			if q, ok := qs[0].(map[string]any); ok {
				if s, ok := q["question"].(string); ok {
					return clip(s)
				}
			}
		}
		return "Claude asks a question"
	case "ExitPlanMode":
		return "Claude has a plan for you to review"
	}
	for _, k := range []string{"command", "file_path", "path", "url", "pattern"} {
		if s, ok := in[k].(string); ok && s != "" {
			return clip(p.ToolName + ": " + s)
		}
	}
	if p.Description != "" {
		return clip(p.ToolName + ": " + p.Description)
	}
	return p.ToolName
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 140 {
		return string(r[:139]) + "…"
	}
	return s
}

func requestID(f json.RawMessage) string {
	if len(f) == 0 {
		return ""
	}
	var p struct {
		RequestID string `json:"requestId"`
	}
	_ = json.Unmarshal(f, &p)
	return p.RequestID
}
