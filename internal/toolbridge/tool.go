package toolbridge

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"unicode/utf8"
)

// AllScopes is the scope of a registration that serves every scope.
const AllScopes = "*"

// Limits on what a provider registers and answers.
const (
	// MaxTools is the most tools one provider registers for one scope.
	MaxTools = 64
	// MaxDescription bounds a tool's description (bytes).
	MaxDescription = 4 << 10
	// MaxSchema bounds a tool's input schema (bytes of JSON).
	MaxSchema = 64 << 10
	// MaxProviderName bounds a provider's name (bytes).
	MaxProviderName = 80
)

// toolName is what a tool's name may be: the agent's full name for it
// (mcp__agentdesk__<name>) must stay within the Messages API's 64
// characters of [A-Za-z0-9_-].
var toolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,48}$`)

// Tool is one tool a provider offers.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Listed is a tool as a scope sees it: the tool and who provides it.
type Listed struct {
	Tool
	Provider string `json:"provider"`
}

// emptySchema is the input schema of a tool that declared none: it takes
// an object with anything in it.
var emptySchema = json.RawMessage(`{"type":"object"}`)

// check validates t and returns it with its defaults filled in.
func (t Tool) check() (Tool, error) {
	if !toolName.MatchString(t.Name) {
		return t, fmt.Errorf("tool name %q must be 1 to 48 letters, digits, _ or -", t.Name)
	}
	if len(t.Description) > MaxDescription || !utf8.ValidString(t.Description) {
		return t, fmt.Errorf("tool %s: the description must be UTF-8 text of at most %d bytes", t.Name, MaxDescription)
	}
	s := bytes.TrimSpace(t.InputSchema)
	if len(s) == 0 || bytes.Equal(s, []byte("null")) {
		t.InputSchema = emptySchema
		return t, nil
	}
	if len(s) > MaxSchema {
		return t, fmt.Errorf("tool %s: the input schema is larger than %d bytes", t.Name, MaxSchema)
	}
	var head struct {
		Type any `json:"type"`
	}
	if s[0] != '{' || json.Unmarshal(s, &head) != nil || head.Type != "object" {
		return t, fmt.Errorf(`tool %s: inputSchema must be a JSON Schema object with "type": "object"`, t.Name)
	}
	t.InputSchema = append(json.RawMessage(nil), s...)
	return t, nil
}

// checkTools validates a registration's tools: each valid, names unique.
func checkTools(tools []Tool) ([]Tool, error) {
	if len(tools) > MaxTools {
		return nil, fmt.Errorf("at most %d tools per registration, got %d", MaxTools, len(tools))
	}
	out := make([]Tool, 0, len(tools))
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		t, err := t.check()
		if err != nil {
			return nil, err
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("tool %s is listed twice", t.Name)
		}
		seen[t.Name] = true
		out = append(out, t)
	}
	return out, nil
}

// Content is one item of a tool's result: text, an image (base64 data and
// its type) or any JSON value.
type Content struct {
	Type     string          `json:"type"`
	Text     string          `json:"text,omitempty"`
	Data     string          `json:"data,omitempty"`
	MimeType string          `json:"mimeType,omitempty"`
	JSON     json.RawMessage `json:"json,omitempty"`
}

// Result is what a call gives back. IsError marks a failed call: its
// content says why, for the agent to read.
type Result struct {
	Content []Content `json:"content"`
	IsError bool      `json:"isError"`
}

// ErrorResult is a failed call's result with one text.
func ErrorResult(text string) Result {
	return Result{Content: []Content{{Type: "text", Text: text}}, IsError: true}
}

// TextResult is a successful call's result with one text.
func TextResult(text string) Result {
	return Result{Content: []Content{{Type: "text", Text: text}}}
}

var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// check validates a provider's result.
func (r Result) check() error {
	for i, c := range r.Content {
		switch c.Type {
		case "text":
			if !utf8.ValidString(c.Text) {
				return fmt.Errorf("content[%d]: text must be UTF-8", i)
			}
		case "image":
			if !imageTypes[c.MimeType] {
				return fmt.Errorf("content[%d]: mimeType must be image/png, image/jpeg, image/gif or image/webp", i)
			}
			if _, err := base64.StdEncoding.DecodeString(c.Data); err != nil || c.Data == "" {
				return fmt.Errorf("content[%d]: data must be the image in standard base64", i)
			}
		case "json":
			if len(c.JSON) == 0 || !json.Valid(c.JSON) {
				return fmt.Errorf("content[%d]: json must hold a JSON value", i)
			}
		default:
			return fmt.Errorf("content[%d]: type must be text, image or json, got %q", i, c.Type)
		}
	}
	return nil
}
