// Package transcript writes a stored conversation as a document a person
// reads: markdown, one section per message (GET …/export?format=md).
//
// It reads the CLI's own message shapes (claude-cli.md §4): user and
// assistant messages whose content is a string or a list of blocks (text,
// thinking, tool_use, tool_result, image, document), results and system
// lines. What it does not know it leaves out rather than guess.
package transcript

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// maxToolOutput bounds how much of one tool result the transcript quotes:
// a 30 MB test log is noise in a document meant for reading.
const maxToolOutput = 8 << 10

// Header is what the document starts with.
type Header struct {
	Title    string
	Cwd      string
	Worker   string
	Exported time.Time
}

// WriteHeader writes the document's title and where it comes from.
func WriteHeader(w io.Writer, h Header) error {
	title := strings.TrimSpace(h.Title)
	if title == "" {
		title = "Conversation"
	}
	_, err := fmt.Fprintf(w, "# %s\n\n- Directory: `%s`\n- Worker: `%s`\n- Exported: %s\n",
		oneLine(title), h.Cwd, h.Worker, h.Exported.UTC().Format(time.RFC3339))
	return err
}

// message is the part of a stored CLI line the transcript reads.
type message struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Message struct {
		Role    string          `json:"role"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	Result          string  `json:"result"`
	IsError         bool    `json:"is_error"`
	TotalCostUSD    float64 `json:"total_cost_usd"`
	DurationMS      int64   `json:"duration_ms"`
}

// WriteMessage writes one stored CLI line as markdown; lines that carry
// nothing to read (stream events, init, control traffic) write nothing.
func WriteMessage(w io.Writer, raw json.RawMessage) error {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("read message: %w", err)
	}
	var b strings.Builder
	switch m.Type {
	case "user":
		writeTurn(&b, "User", m)
	case "assistant":
		writeTurn(&b, "Claude", m)
	case "result":
		writeResult(&b, m)
	}
	if b.Len() == 0 {
		return nil
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTurn(b *strings.Builder, who string, m message) {
	var body strings.Builder
	var s string
	if json.Unmarshal(m.Message.Content, &s) == nil {
		body.WriteString(demoteHeadings(strings.TrimSpace(s)))
		body.WriteString("\n")
	} else {
		var blocks []block
		if json.Unmarshal(m.Message.Content, &blocks) != nil {
			return
		}
		for _, bl := range blocks {
			bl.write(&body)
		}
	}
	if strings.TrimSpace(body.String()) == "" {
		return
	}
	if m.ParentToolUseID != nil && *m.ParentToolUseID != "" {
		who += " (subagent)"
	}
	if who == "User" && onlyToolResults(m.Message.Content) {
		who = "Tool result"
	}
	fmt.Fprintf(b, "\n## %s\n\n%s", who, body.String())
}

func writeResult(b *strings.Builder, m message) {
	state := "Turn ended"
	if m.IsError {
		state = "Turn failed"
	}
	fmt.Fprintf(b, "\n*%s (%s", state, time.Duration(m.DurationMS)*time.Millisecond)
	if m.TotalCostUSD > 0 {
		fmt.Fprintf(b, ", $%.4f so far", m.TotalCostUSD)
	}
	b.WriteString(")*\n")
}

func onlyToolResults(content json.RawMessage) bool {
	var blocks []block
	if json.Unmarshal(content, &blocks) != nil || len(blocks) == 0 {
		return false
	}
	for _, bl := range blocks {
		if bl.Type != "tool_result" {
			return false
		}
	}
	return true
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
