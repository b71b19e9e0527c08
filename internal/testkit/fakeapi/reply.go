package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// plan is the reply decided for one /v1/messages request.
type plan struct {
	kind    string // Request.Reply
	status  int    // 200, or the error status
	errType string
	errMsg  string
	blocks  []block
	stop    string // stop_reason
	slow    bool   // stream the text block chunk by chunk with delays
}

// block is one content block to send.
type block struct {
	Type     string // text, thinking, tool_use
	Text     string // text, or thinking for thinking blocks
	ToolName string
	Input    map[string]any
	Chunks   []string // the deltas of Text, when they matter (slow)
}

// askInput is the AskUserQuestion input shape of claude-cli.md §6.
var askInput = map[string]any{"questions": []any{map[string]any{
	"question": "Which color do you prefer?", "header": "Color", "multiSelect": false,
	"options": []any{
		map[string]string{"label": "Red", "description": "The color red"},
		map[string]string{"label": "Blue", "description": "The color blue"},
	},
}}}

var (
	wordRe = regexp.MustCompile(`[a-z0-9]+`)
	bashRe = regexp.MustCompile(`(?i)\bbash:([^\n]*)`)
)

// decide picks the reply for a parsed /v1/messages body.
func (s *Server) decide(body messagesBody) plan {
	n := len(body.Messages)
	if f := body.OutputConfig.Format; f != nil && f.Type == "json_schema" {
		return textPlan("schema", schemaInstance(f.Schema))
	}
	if p, ok := scriptPlan(body); ok {
		return p
	}
	last, _ := lastUser(body.Messages)
	if p, ok := restoredPlan(last); ok {
		return p
	}
	if p, ok := planFollowUp(body.Messages, last); ok {
		return p
	}
	prompt := afterInterrupt(last.Text())
	// A call prompt sent with the result of an interrupted call (the CLI
	// sends them together) is a call, not that result's follow-up.
	if p, ok := bridgePlan(prompt); ok && len(body.Tools) > 0 {
		return p
	}
	if p, ok := toolResultPlan(body.Messages, last, n); ok {
		return p
	}
	echo := fmt.Sprintf("Echo: %s (request had %d messages)", prompt, n)
	if len(body.Tools) == 0 {
		return textPlan("echo", echo) // a side request or the set_model probe
	}
	words := map[string]bool{}
	for _, w := range wordRe.FindAllString(strings.ToLower(prompt), -1) {
		words[w] = true
	}
	switch m := bashRe.FindStringSubmatch(prompt); {
	case words["error400"]:
		return plan{kind: "error400", status: http.StatusBadRequest,
			errType: "invalid_request_error", errMsg: "fake: scripted API error"}
	case words["overloaded"]:
		return plan{kind: "overloaded", status: 529, errType: "overloaded_error", errMsg: "Overloaded"}
	case m != nil && strings.TrimSpace(m[1]) != "":
		cmd := strings.TrimSpace(m[1])
		return toolPlan("bash", fmt.Sprintf("I'll run `%s`.", cmd), "Bash",
			map[string]any{"command": cmd, "description": "Run " + cmd})
	case words["plan"]:
		return planPlan(body)
	case words["ask"]:
		return toolPlan("ask", "I have a question for you.", "AskUserQuestion", askInput)
	case words["slow"]:
		chunks := make([]string, max(s.SlowChunks, 1))
		for i := range chunks {
			chunks[i] = fmt.Sprintf("slow chunk %02d. ", i)
		}
		p := textPlan("slow", strings.Join(chunks, ""))
		p.blocks[0].Chunks, p.slow = chunks, true
		return p
	case words["think"]:
		p := textPlan("think", echo)
		p.blocks = append([]block{{Type: "thinking",
			Text: "Let me think about this. The user wants a reply."}}, p.blocks...)
		return p
	}
	return textPlan("echo", echo)
}

func textPlan(kind, text string) plan {
	return plan{kind: kind, status: http.StatusOK, stop: "end_turn",
		blocks: []block{{Type: "text", Text: text}}}
}

func toolPlan(kind, text, name string, input map[string]any) plan {
	return plan{kind: kind, status: http.StatusOK, stop: "tool_use", blocks: []block{
		{Type: "text", Text: text},
		{Type: "tool_use", ToolName: name, Input: input},
	}}
}

// toolResultPlan answers a follow-up carrying tool results with a summary
// of them, naming each tool from the assistant tool_use it answers.
func toolResultPlan(msgs []Message, last Message, n int) (plan, bool) {
	names := map[string]string{}
	for _, m := range msgs {
		for _, b := range m.Blocks() {
			if b.Type == "tool_use" {
				names[b.ID] = b.Name
			}
		}
	}
	var lines []string
	for _, b := range last.Blocks() {
		if b.Type != "tool_result" {
			continue
		}
		status := "ok"
		if b.IsError {
			status = "error"
		}
		lines = append(lines, fmt.Sprintf("- `%s` (%s): '%s'", names[b.ToolUseID], status, blockText(b.Content)))
	}
	if len(lines) == 0 {
		return plan{}, false
	}
	text := fmt.Sprintf("Tool finished. Results:\n%s\n\n(request had %d messages)", strings.Join(lines, "\n"), n)
	return textPlan("tool_result", text), true
}

// schemaInstance returns the smallest JSON value the schema accepts, as
// text: required properties only, strings "fake", numbers 0.
func schemaInstance(raw json.RawMessage) string {
	var schema map[string]any
	json.Unmarshal(raw, &schema)
	b, _ := json.Marshal(instance(schema, 0))
	return string(b)
}

func instance(schema map[string]any, depth int) any {
	if depth > 8 { // a recursive schema must not recurse forever
		return nil
	}
	switch schema["type"] {
	case "string":
		return "fake"
	case "number", "integer":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	case "null":
		return nil
	}
	out := map[string]any{}
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]any)
	for _, r := range required {
		name, _ := r.(string)
		sub, _ := props[name].(map[string]any)
		out[name] = instance(sub, depth+1)
	}
	return out
}

// interruptMark is the text the CLI adds to the conversation when a turn
// is interrupted (recorded in testdata/claude-cli).
const interruptMark = "[Request interrupted by user"

// afterInterrupt is the part of a user message's text after the CLI's
// last interruption mark. A turn interrupted before any answer leaves no
// assistant message behind it, so the CLI sends the old prompt, the mark
// and the new prompt as one user message; the reply is decided by the new
// prompt alone, as the model would answer it.
func afterInterrupt(text string) string {
	i := strings.LastIndex(text, interruptMark)
	if i < 0 {
		return text
	}
	rest := text[i+len(interruptMark):]
	if j := strings.IndexByte(rest, ']'); j >= 0 {
		rest = rest[j+1:]
	}
	return strings.TrimSpace(rest)
}
