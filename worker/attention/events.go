package attention

import (
	"encoding/json"
	"strings"

	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// appEvent holds the fields of the /ws/app frames the list needs.
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
func (l *List) observe(data []byte) {
	var e appEvent
	if json.Unmarshal(data, &e) != nil {
		return
	}
	switch e.Type {
	case wire.TypeSessionsSync:
		for _, s := range e.Sessions {
			for _, w := range s.Workers {
				l.note(w.SessionID, w.ID, w.Activity)
			}
		}
	case wire.TypeWorkerActivity:
		l.note(e.SessionID, e.WorkerID, e.Activity)
	case wire.TypeWorkerCreated, wire.TypeWorkerUpdated:
		if e.Worker != nil {
			l.note(e.Worker.SessionID, e.Worker.ID, e.Worker.Activity)
		}
	}
}

func (l *List) note(sid, wid string, act *worker.Activity) {
	l.mu.Lock()
	defer l.mu.Unlock()
	next := worker.Activity("")
	if act != nil {
		next = *act
	}
	prev, seen := l.last[wid]
	l.last[wid] = next
	if seen && busy(prev) && next == worker.ActivityIdle {
		l.marks.markUnseen(sid, wid, l.now())
	}
}

func busy(a worker.Activity) bool {
	return a == worker.ActivityActive || a == worker.ActivityStalled || a == worker.ActivityAsking
}

// Seen clears the unseen marks of a session's workers (a tab shows it);
// the error says they could not be stored.
func (l *List) Seen(sid string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.marks.clearSession(sid); err != nil {
		return err
	}
	l.refreshLocked()
	return nil
}

// pendingLister is a runtime with permission requests waiting (sdk).
type pendingLister interface {
	PendingRequests() []json.RawMessage
}

// requests lists a worker's waiting permission requests, each its item.
func (l *List) requests(base Item) []Item {
	_, rt, err := l.mgr.Runtime(base.SessionID, base.WorkerID)
	pl, ok := rt.(pendingLister)
	if err != nil || !ok {
		it := base
		it.Kind, it.Title = KindPermission, "Waiting for your answer"
		return []Item{it}
	}
	var out []Item
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
		return KindQuestion
	case "ExitPlanMode":
		return KindPlan
	}
	return KindPermission
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
					return Clip(s)
				}
			}
		}
		return "Claude asks a question"
	case "ExitPlanMode":
		return "Claude has a plan for you to review"
	}
	for _, k := range []string{"command", "file_path", "path", "url", "pattern"} {
		if s, ok := in[k].(string); ok && s != "" {
			return Clip(p.ToolName + ": " + s)
		}
	}
	if p.Description != "" {
		return Clip(p.ToolName + ": " + p.Description)
	}
	return p.ToolName
}

// Clip makes s one line of at most 140 characters.
func Clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 140 {
		return string(r[:139]) + "…"
	}
	return s
}

// RequestID is the requestId of a permission-request frame, "" for none.
func RequestID(f json.RawMessage) string {
	if len(f) == 0 {
		return ""
	}
	var p struct {
		RequestID string `json:"requestId"`
	}
	_ = json.Unmarshal(f, &p)
	return p.RequestID
}

// HasRequest reports whether frames (a runtime's waiting permission
// requests) hold the request rid.
func HasRequest(frames []json.RawMessage, rid string) bool {
	for _, f := range frames {
		if RequestID(f) == rid {
			return true
		}
	}
	return false
}
