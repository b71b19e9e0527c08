package fakeapi

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
)

// Request is one logged request.
type Request struct {
	Method string
	Path   string // URL path without the query, e.g. /v1/messages
	Query  string // raw query, e.g. beta=true
	Host   string // the Host header; for CONNECT the target, e.g. api.anthropic.com:443
	Header http.Header
	// Body is the parsed JSON body (nil when empty or not JSON); RawBody the
	// bytes as received.
	Body    map[string]any
	RawBody []byte

	// Status, Reply and Disconnected say how it was answered, once the
	// handler has finished (Status is 0 before). Reply names the behaviour:
	// echo, think, bash, ask, slow, tools:<name>, tool_result, schema, error400,
	// overloaded, count_tokens, models, connect, other.
	Status       int
	Reply        string
	Disconnected bool
}

// SessionID is the x-claude-code-session-id header.
func (r Request) SessionID() string { return r.Header.Get("X-Claude-Code-Session-Id") }

// Model is the body's model.
func (r Request) Model() string {
	m, _ := r.Body["model"].(string)
	return m
}

// Messages is the body's messages list, decoded.
func (r Request) Messages() []Message {
	return parseBody(r.RawBody).Messages
}

// Roles lists the roles of the messages ("user", "system", "assistant", …).
func (r Request) Roles() []string {
	var out []string
	for _, m := range r.Messages() {
		out = append(out, m.Role)
	}
	return out
}

// LastUserText is the text of the last role:"user" message without
// <system-reminder> blocks: what the fake decided its reply from.
func (r Request) LastUserText() string {
	if m, ok := lastUser(r.Messages()); ok {
		return m.Text()
	}
	return ""
}

// messagesBody is the part of a /v1/messages body the fake reads.
type messagesBody struct {
	Model        string            `json:"model"`
	Messages     []Message         `json:"messages"`
	Tools        []json.RawMessage `json:"tools"`
	Stream       bool              `json:"stream"`
	OutputConfig struct {
		Format *struct {
			Type   string          `json:"type"`
			Schema json.RawMessage `json:"schema"`
		} `json:"format"`
	} `json:"output_config"`
}

func parseBody(b []byte) messagesBody {
	var body messagesBody
	json.Unmarshal(b, &body) // a bad body is an empty one: the fake still answers
	return body
}

// Message is one entry of a request's messages.
type Message struct {
	Role string `json:"role"`
	// Content is a string or a list of blocks, as sent.
	Content json.RawMessage `json:"content"`
}

// Block is a content block, with the fields of text, tool_use and
// tool_result blocks.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// Blocks returns the content as blocks; a string content is one text block.
func (m Message) Blocks() []Block {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []Block{{Type: "text", Text: s}}
	}
	var blocks []Block
	json.Unmarshal(m.Content, &blocks)
	return blocks
}

var reminder = regexp.MustCompile(`(?s)<system-reminder>.*?</system-reminder>`)

// Text joins the message's text blocks, without <system-reminder> blocks.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Blocks() {
		if b.Type != "text" {
			continue
		}
		if t := strings.TrimSpace(reminder.ReplaceAllString(b.Text, "")); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// lastUser finds the last role:"user" message: the CLI often appends
// role:"system" notes after it (claude-cli.md §11).
func lastUser(msgs []Message) (Message, bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i], true
		}
	}
	return Message{}, false
}

// blockText is the text of a tool_result content: a string or text blocks.
func blockText(raw json.RawMessage) string {
	m := Message{Content: raw}
	var parts []string
	for _, b := range m.Blocks() {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
