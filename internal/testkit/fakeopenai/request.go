package fakeopenai

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one logged request.
type Request struct {
	Method string
	Path   string // URL path without the query, e.g. /v1/responses
	Host   string // the Host header; for CONNECT the target, e.g. api.openai.com:443
	Header http.Header
	// Body is the parsed JSON body (nil when empty or not JSON); RawBody the
	// bytes as received.
	Body    map[string]any
	RawBody []byte

	// Status, Reply and Disconnected say how it was answered, once the
	// handler has finished (Status is 0 before). Reply names the rule:
	// echo, think, tool, bash, patch, slow, hang, down, tool_result, error400,
	// error500, models, connect, other.
	Status       int
	Reply        string
	Disconnected bool
}

// Model is the body's model.
func (r Request) Model() string {
	m, _ := r.Body["model"].(string)
	return m
}

// Input is the body's input list, decoded.
func (r Request) Input() []Item { return parseBody(r.RawBody).Input }

// Prompt is the text the reply was chosen from: the last user message
// that is not one of the CLI's own context messages.
func (r Request) Prompt() string { return prompt(r.Input()) }

// Images lists the image_url of every input_image part of the request's
// user messages, oldest first (data: URLs as sent).
func (r Request) Images() []string {
	var out []string
	for _, it := range r.Input() {
		for _, p := range it.Parts() {
			if p.Type == "input_image" {
				out = append(out, p.ImageURL)
			}
		}
	}
	return out
}

// responsesBody is the part of a /v1/responses body the fake reads.
type responsesBody struct {
	Model  string            `json:"model"`
	Input  []Item            `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
	Stream bool              `json:"stream"`
}

func parseBody(b []byte) responsesBody {
	var body responsesBody
	json.Unmarshal(b, &body) // a bad body is an empty one: the fake still answers
	return body
}

// Item is one entry of a request's input: a message, a function call, its
// output, a reasoning item.
type Item struct {
	Type    string          `json:"type"`
	Role    string          `json:"role,omitempty"`
	Content json.RawMessage `json:"content,omitempty"` // a string or parts
	CallID  string          `json:"call_id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Output  json.RawMessage `json:"output,omitempty"` // function_call_output: a string or parts
}

// Part is a content part of a message item.
type Part struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
}

// Parts returns a message's content parts; a string content is one
// input_text part.
func (it Item) Parts() []Part {
	var s string
	if json.Unmarshal(it.Content, &s) == nil {
		return []Part{{Type: "input_text", Text: s}}
	}
	var parts []Part
	json.Unmarshal(it.Content, &parts)
	return parts
}

// Text joins a message's text parts.
func (it Item) Text() string {
	var out []string
	for _, p := range it.Parts() {
		if p.Type == "input_text" || p.Type == "output_text" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// OutputText is a function_call_output's output as text.
func (it Item) OutputText() string {
	var s string
	if json.Unmarshal(it.Output, &s) == nil {
		return s
	}
	var parts []Part
	json.Unmarshal(it.Output, &parts)
	var out []string
	for _, p := range parts {
		out = append(out, p.Text)
	}
	return strings.Join(out, "\n")
}

// contextPrefixes start the user messages the CLI adds itself (the
// environment, AGENTS.md instructions, turn aborts): they are not prompts.
var contextPrefixes = []string{"<environment_context>", "<user_instructions>", "# AGENTS.md", "<turn_aborted>"}

// prompt is the text of the last user message the person wrote.
func prompt(input []Item) string {
	for i := len(input) - 1; i >= 0; i-- {
		it := input[i]
		if it.Role != "user" || (it.Type != "" && it.Type != "message") {
			continue
		}
		text := strings.TrimSpace(it.Text())
		if !isContext(text) {
			return text
		}
	}
	return ""
}

func isContext(text string) bool {
	for _, p := range contextPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}
