package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
)

// block is one content block of a CLI message.
type block struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Content  json.RawMessage `json:"content"` // tool_result: a string or blocks
	IsError  bool            `json:"is_error"`
	Title    string          `json:"title"` // document
	Source   struct {
		MediaType string `json:"media_type"`
	} `json:"source"`
}

func (bl block) write(b *strings.Builder) {
	switch bl.Type {
	case "text":
		if t := strings.TrimSpace(bl.Text); t != "" {
			b.WriteString(demoteHeadings(t) + "\n\n")
		}
	case "thinking":
		if t := demoteHeadings(strings.TrimSpace(bl.Thinking)); t != "" {
			b.WriteString("<details><summary>Thinking</summary>\n\n" + t + "\n\n</details>\n\n")
		}
	case "tool_use":
		fmt.Fprintf(b, "**Tool: %s**\n\n", oneLine(bl.Name))
		writeFence(b, "json", indentJSON(bl.Input))
	case "tool_result":
		label := "Output"
		if bl.IsError {
			label = "Error"
		}
		out := toolText(bl.Content)
		if out == "" {
			fmt.Fprintf(b, "*%s: (empty)*\n\n", label)
			return
		}
		fmt.Fprintf(b, "%s:\n\n", label)
		writeFence(b, "", truncate(out))
	case "image":
		fmt.Fprintf(b, "*[image: %s]*\n\n", bl.Source.MediaType)
	case "document":
		fmt.Fprintf(b, "*[document: %s]*\n\n", oneLine(firstNonEmpty(bl.Title, bl.Source.MediaType)))
	}
}

// toolText is a tool result's text: a string, or its text blocks joined.
func toolText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []block
	if json.Unmarshal(content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			parts = append(parts, bl.Text)
		case "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

// writeFence quotes text in a code fence longer than any backtick run in
// it, so tool output never closes the fence early.
func writeFence(b *strings.Builder, lang, text string) {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	b.WriteString(fence + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + fence + "\n\n")
}

func indentJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(out)
}

func truncate(s string) string {
	if len(s) <= maxToolOutput {
		return s
	}
	cut := maxToolOutput
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (%d more bytes)", len(s)-cut)
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
