package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Request is Codex asking the person: to run a command, to change files,
// for more permissions, or questions (Question).
type Request struct {
	ID   string
	Tool string // Bash, Edit, Write, Permissions, AskUserQuestion
	// Question marks questions: an allow carries the answers.
	Question    bool
	Input       json.RawMessage
	Description string
	ToolUseID   string
	// Suggestions hold the "allow for this session" choice, in the shape
	// the chat's permission card shows (an addRules update with
	// destination "session").
	Suggestions json.RawMessage
}

// Reply is an answer for Codex: the result (or error) of its request ID.
type Reply struct {
	ID     json.RawMessage
	Result any
	Err    *RPCError
	// run, when set, is a dynamic tool call that may run: the bridge's
	// result answers it, not this Reply (toolask.go).
	run *Msg
}

// Rule allows what a request asks without asking again: a command
// (Tool Bash, Content the command) or changes to files (Tool Edit,
// Content the paths, one per line).
type Rule struct{ Tool, Content string }

// Spec is the rule in the chat's syntax, Tool(Content).
func (r Rule) Spec() string { return r.Tool + "(" + r.Content + ")" }

// ParseRule reads Tool(Content); false for anything else.
func ParseRule(s string) (Rule, bool) {
	tool, rest, ok := strings.Cut(s, "(")
	if !ok || tool == "" || !strings.HasSuffix(rest, ")") {
		return Rule{}, false
	}
	return Rule{Tool: tool, Content: strings.TrimSuffix(rest, ")")}, true
}

// approval is an open request and how to answer it.
type approval struct {
	rpcID     json.RawMessage
	method    string
	rule      Rule            // what "for this session" allows
	perms     json.RawMessage // item/permissions/requestApproval: what was asked
	questions map[string]string
	call      *Msg // item/tool/call: the call, run once allowed (toolask.go)
}

// ErrUnknownRequest is an answer to a request the Translator does not hold
// open (answered already, or withdrawn).
var ErrUnknownRequest = errors.New("codex: no such open request")

// Allow makes rules allowed without asking (rules a person allowed for
// the session before a restart).
func (t *Translator) Allow(rules ...Rule) { t.allowed = append(t.allowed, rules...) }

// request handles a request from Codex: a Request for the person, or a
// Reply at once.
func (t *Translator) request(m Msg) ([]Out, *Reply) {
	var a approval
	var req *Request
	switch m.Method {
	case "item/commandExecution/requestApproval":
		a, req = t.commandAsk(m.Params)
	case "item/fileChange/requestApproval":
		a, req = t.fileAsk(m.Params)
	case "item/permissions/requestApproval":
		a, req = permissionsAsk(m.Params)
	case "item/tool/requestUserInput":
		a, req = questionsAsk(m.Params)
	case "mcpServer/elicitation/request":
		return nil, &Reply{ID: m.ID, Result: map[string]string{"action": "decline"}}
	case "execCommandApproval", "applyPatchApproval": // the v1 protocol's: never sent to this client
		return nil, &Reply{ID: m.ID, Result: map[string]string{"decision": "denied"}}
	case methodToolCall:
		if t.who == nil {
			return nil, dynamicToolCall(m)
		}
		a, req = toolAsk(m, t.who)
		if t.policy == "never" || bridgeAllowed(t.allowed, a.rule.Tool) {
			return nil, &Reply{ID: m.ID, run: a.call}
		}
	default:
		return nil, &Reply{ID: m.ID, Err: &RPCError{Code: -32601, Message: "agentdesk does not handle " + m.Method}}
	}
	if a.rule.Tool != "" && allowedBy(t.allowed, a.rule) {
		return nil, &Reply{ID: m.ID, Result: map[string]string{"decision": "accept"}}
	}
	a.rpcID, a.method = m.ID, m.Method
	req.ID = t.newID()
	t.asks[req.ID] = &a
	t.byRPC[string(m.ID)] = req.ID
	return []Out{{Kind: OutRequest, Request: req}}, nil
}

func (t *Translator) commandAsk(raw json.RawMessage) (approval, *Request) {
	p := params[struct {
		ItemID  string `json:"itemId"`
		Command string `json:"command"`
		Cwd     string `json:"cwd"`
		Reason  string `json:"reason"`
	}](raw)
	cmd := displayCommand(p.Command)
	input, _ := json.Marshal(map[string]string{"command": cmd, "cwd": p.Cwd})
	rule := Rule{Tool: "Bash", Content: cmd}
	return approval{rule: rule}, &Request{Tool: "Bash", Input: input, Description: p.Reason,
		ToolUseID: p.ItemID, Suggestions: sessionSuggestion(rule)}
}

func (t *Translator) fileAsk(raw json.RawMessage) (approval, *Request) {
	p := params[struct {
		ItemID    string `json:"itemId"`
		Reason    string `json:"reason"`
		GrantRoot string `json:"grantRoot"`
	}](raw)
	changes := t.files[p.ItemID]
	name, input := "Edit", map[string]any{}
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path)
	}
	if len(changes) > 0 {
		name, input = editCall(changes[0])
	}
	if len(changes) > 1 {
		name, input["files"] = "Edit", paths
	}
	desc := p.Reason
	if p.GrantRoot != "" {
		desc = strings.TrimSpace(desc + " (write access under " + p.GrantRoot + ")")
	}
	b, _ := json.Marshal(input)
	rule := Rule{Tool: "Edit", Content: strings.Join(paths, "\n")}
	return approval{rule: rule}, &Request{Tool: name, Input: b, Description: desc, ToolUseID: callID(p.ItemID, 0, len(changes)),
		Suggestions: sessionSuggestion(rule)}
}

func permissionsAsk(raw json.RawMessage) (approval, *Request) {
	p := params[struct {
		ItemID      string          `json:"itemId"`
		Reason      string          `json:"reason"`
		Permissions json.RawMessage `json:"permissions"`
	}](raw)
	input := p.Permissions
	if len(input) == 0 || input[0] != '{' {
		input = json.RawMessage(`{}`)
	}
	rule := Rule{Tool: "Permissions"}
	return approval{perms: input}, &Request{Tool: "Permissions", Input: input, Description: p.Reason,
		ToolUseID: p.ItemID, Suggestions: sessionSuggestion(rule)}
}

func questionsAsk(raw json.RawMessage) (approval, *Request) {
	p := params[struct {
		ItemID    string `json:"itemId"`
		Questions []struct {
			ID, Header, Question string
			Options              []struct{ Label, Description string }
		} `json:"questions"`
	}](raw)
	ids := map[string]string{}
	var qs []any
	for _, q := range p.Questions {
		ids[q.Question] = q.ID
		opts := []any{}
		for _, o := range q.Options {
			opts = append(opts, map[string]string{"label": o.Label, "description": o.Description})
		}
		qs = append(qs, map[string]any{"question": q.Question, "header": q.Header, "options": opts, "multiSelect": false})
	}
	input, _ := json.Marshal(map[string]any{"questions": qs})
	return approval{questions: ids}, &Request{Tool: "AskUserQuestion", Question: true, Input: input, ToolUseID: p.ItemID}
}

// dynamicToolCall answers Codex calling a dynamic tool (agents.md §C: the
// tools a client declares in thread/start) when the Session has no tool
// bridge: it declared none, so a call is an error. With one, the Session
// routes the call to the bridge before it reaches the Translator.
func dynamicToolCall(m Msg) *Reply {
	return &Reply{ID: m.ID, Err: &RPCError{Code: -32601, Message: "agentdesk offers no dynamic tools"}}
}

// sessionSuggestion is the one "always allow" choice Codex has: for the
// rest of the session (acceptForSession).
func sessionSuggestion(r Rule) json.RawMessage {
	b, _ := json.Marshal([]any{map[string]any{"type": "addRules", "behavior": "allow", "destination": "session",
		"rules": []any{map[string]string{"toolName": r.Tool, "ruleContent": r.Content}}}})
	return b
}

// Answer is a person's answer to a Request.
type Answer struct {
	Allow bool
	// Session allows the same again without asking, for the rest of the
	// session (the request's suggestion was chosen).
	Session bool
	// Answers are a Question's answers, by question text.
	Answers map[string]string
	// Message is a deny's reason: Codex's decisions take none, but a
	// denied tool call's error result carries it to the model.
	Message string
}

// Decide turns an answer to request id into the reply Codex expects.
// Codex's decisions take no reason: a deny's message is not passed on.
func (t *Translator) Decide(id string, a Answer) (Reply, error) {
	ap, ok := t.asks[id]
	if !ok {
		return Reply{}, fmt.Errorf("%w: %s", ErrUnknownRequest, id)
	}
	delete(t.asks, id)
	delete(t.byRPC, string(ap.rpcID))
	if a.Allow && a.Session && ap.rule.Tool != "" {
		t.allowed = append(t.allowed, ap.rule)
	}
	if !a.Allow && ap.call != nil {
		t.denied = append(t.denied, map[string]any{"tool_name": ap.rule.Tool, "tool_use_id": params[toolCall](ap.call.Params).CallID})
	}
	if a.Allow && ap.call != nil {
		return Reply{ID: ap.rpcID, run: ap.call}, nil
	}
	return Reply{ID: ap.rpcID, Result: decision(ap, a)}, nil
}

func decision(ap *approval, a Answer) any {
	switch ap.method {
	case "item/permissions/requestApproval":
		if !a.Allow {
			return map[string]any{"permissions": map[string]any{}}
		}
		scope := "turn"
		if a.Session {
			scope = "session"
		}
		return map[string]any{"permissions": ap.perms, "scope": scope}
	case methodToolCall:
		return deniedCall(ap.rule.Tool, a.Message) // an allow runs the call instead (Session.Answer)
	case "item/tool/requestUserInput":
		answers := map[string]any{}
		for q, ans := range a.Answers {
			if id, ok := ap.questions[q]; ok && a.Allow {
				answers[id] = map[string]any{"answers": []string{ans}}
			}
		}
		return map[string]any{"answers": answers}
	}
	d := "decline"
	switch {
	case a.Allow && a.Session:
		d = "acceptForSession"
	case a.Allow:
		d = "accept"
	}
	return map[string]string{"decision": d}
}

// resolved is Codex saying a request of its own is settled: if nobody
// answered it (the turn ended), the chat drops the prompt.
func (t *Translator) resolved(raw json.RawMessage) []Out {
	p := params[struct {
		RequestID json.RawMessage `json:"requestId"`
	}](raw)
	id, ok := t.byRPC[string(p.RequestID)]
	if !ok {
		return nil
	}
	delete(t.byRPC, string(p.RequestID))
	delete(t.asks, id)
	return []Out{{Kind: OutWithdrawn, RequestID: id}}
}

// withdrawAll drops every open request (the turn they belong to ended).
func (t *Translator) withdrawAll() []Out {
	var out []Out
	for id, ap := range t.asks {
		out = append(out, Out{Kind: OutWithdrawn, RequestID: id})
		delete(t.byRPC, string(ap.rpcID))
	}
	clear(t.asks)
	return out
}
