package codex

import (
	"encoding/json"
	"fmt"
	"strings"
)

// commandItem is a commandExecution item.
type commandItem struct {
	ID               string  `json:"id"`
	Command          string  `json:"command"`
	Cwd              string  `json:"cwd"`
	Status           string  `json:"status"` // inProgress, completed, failed, declined
	AggregatedOutput *string `json:"aggregatedOutput"`
	ExitCode         *int    `json:"exitCode"`
	DurationMs       *int64  `json:"durationMs"`
}

// commandUse shows a command Codex runs as a Bash call: the chat's command
// card (the command, then its output).
func (t *Translator) commandUse(item json.RawMessage) Out {
	c := params[commandItem](item)
	return t.toolUse(c.ID, "Bash", map[string]any{"command": displayCommand(c.Command), "cwd": c.Cwd})
}

// commandResult is the command's output and exit code, as the Bash call's
// result; a declined command is a refusal.
func (t *Translator) commandResult(item json.RawMessage) Out {
	c := params[commandItem](item)
	content := ""
	if c.AggregatedOutput != nil {
		content = *c.AggregatedOutput
	}
	declined := c.Status == "declined"
	if declined {
		content = "The user declined this command."
	}
	failed := declined || c.Status == "failed" || (c.ExitCode != nil && *c.ExitCode != 0)
	meta := map[string]any{"status": c.Status, "exitCode": c.ExitCode, "durationMs": c.DurationMs}
	return t.toolResult(c.ID, content, failed, declined, meta)
}

// toolUse is an assistant message with one tool_use block; the item's id
// is the call's.
func (t *Translator) toolUse(id, name string, input any) Out {
	t.calls[id] = name
	return t.assistant(id, map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}, false)
}

// toolResult is the user message that carries a call's result. meta goes
// to tool_use_result (what the chat's tool renderers read); a declined
// call is marked as refused by the person, as the chat reads Claude's.
func (t *Translator) toolResult(id, content string, isError, declined bool, meta any) Out {
	fields := map[string]any{
		"message": map[string]any{"role": "user", "content": []any{map[string]any{
			"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isError}}},
		"tool_use_result": meta,
	}
	if declined {
		fields["tool_result_meta"] = []any{map[string]any{"id": id,
			"permission_decision": map[string]any{"decision": "reject", "source": "user_reject"}}}
		t.denied = append(t.denied, map[string]any{"tool_name": t.calls[id], "tool_use_id": id})
	}
	delete(t.calls, id)
	return t.message("user", fields)
}

// otherItem has the fields of the other tool items shown as calls.
type otherItem struct {
	ID           string          `json:"id"`
	Status       string          `json:"status"`
	Server       string          `json:"server"` // mcpToolCall
	Tool         string          `json:"tool"`   // mcpToolCall, dynamicToolCall
	Namespace    string          `json:"namespace"`
	Arguments    json.RawMessage `json:"arguments"`
	Query        string          `json:"query"` // webSearch
	Path         string          `json:"path"`  // imageView
	Result       json.RawMessage `json:"result"`
	Error        *TurnError      `json:"error"`
	ContentItems []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"contentItems"`
	Success *bool `json:"success"`
}

// otherUse shows an MCP or dynamic tool call, a web search or an image
// view as a tool call.
func (t *Translator) otherUse(h itemHead, item json.RawMessage) Out {
	o := params[otherItem](item)
	name, input := otherCall(h.Type, o)
	if h.Type == "dynamicToolCall" && o.Namespace == "" && t.bridged {
		name = BridgePrefix + o.Tool
	}
	return t.toolUse(o.ID, name, input)
}

func otherCall(typ string, o otherItem) (string, any) {
	args := any(map[string]any{})
	if len(o.Arguments) > 0 && string(o.Arguments) != "null" {
		args = o.Arguments
	}
	switch typ {
	case "mcpToolCall":
		return "mcp__" + o.Server + "__" + o.Tool, args
	case "dynamicToolCall":
		if o.Namespace != "" {
			return o.Namespace + "__" + o.Tool, args
		}
		return o.Tool, args
	case "webSearch":
		return "WebSearch", map[string]any{"query": o.Query}
	}
	return "Read", map[string]any{"file_path": o.Path} // imageView
}

// otherResult is such a call's result, as text.
func (t *Translator) otherResult(h itemHead, item json.RawMessage) Out {
	o := params[otherItem](item)
	var parts []string
	for _, c := range o.ContentItems {
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	if len(o.Result) > 0 && string(o.Result) != "null" {
		parts = append(parts, mcpText(o.Result))
	}
	failed := o.Status == "failed" || (o.Success != nil && !*o.Success)
	if o.Error != nil {
		failed = true
		parts = append(parts, o.Error.Message)
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("(%s)", strings.ToLower(o.Status)))
	}
	return t.toolResult(o.ID, strings.Join(parts, "\n"), failed, o.Status == "declined", nil)
}

// mcpText is the text of an MCP tool result's content, else the result
// as JSON.
func mcpText(raw json.RawMessage) string {
	r := params[struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}](raw)
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 {
		return string(raw)
	}
	return strings.Join(parts, "\n")
}

// shells are the wrappers Codex runs a command in; the card shows the
// command inside.
var shells = []string{"/bin/bash -lc ", "bash -lc ", "/bin/zsh -lc ", "zsh -lc ", "/bin/sh -c ", "sh -c "}

// displayCommand is the command as the model wrote it: cmd without the
// shell wrapper, when its argument is one shell word.
func displayCommand(cmd string) string {
	for _, pre := range shells {
		if rest, ok := strings.CutPrefix(cmd, pre); ok {
			if w, ok := shellWord(rest); ok {
				return w
			}
		}
	}
	return cmd
}

// shellWord reads s as exactly one word of single-quoted parts,
// backslash escapes and plain characters, and returns its value; false
// for anything else (spaces outside quotes, double quotes, expansions).
func shellWord(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i++
		case strings.IndexByte(" \t\n\"$`;&|<>()*?[]{}~#", c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), b.Len() > 0
}
