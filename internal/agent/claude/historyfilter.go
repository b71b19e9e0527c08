package claude

import (
	"bytes"
	"encoding/json"
	"strings"
)

// What a history shows: every assistant entry (partial blocks cut by an
// interrupt included) and every user entry except what the terminal UI
// itself keeps out of the conversation: meta lines (dropped by
// ParseSessionLine), the summary written by /compact, and local
// slash-command records whose text starts with <command-name>,
// <command-message>, <command-args>, <local-command-stdout>,
// <local-command-stderr>, <local-command-caveat> or <system-reminder> (in a
// string, or in every text block of a list with no other blocks), and
// empty ones. Tool results, the interrupt markers and bash-mode turns
// (<bash-input>, <bash-stdout>, which the model answers) stay.

// noisePrefixes start the user text the terminal UI records for a local
// slash command (/compact, /cost, /model …), its output, and the notes it
// adds for the model: none of it is a turn of the conversation, and the
// terminal UI does not show it as one.
var noisePrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>",
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<system-reminder>",
}

// shown reports whether a session entry belongs in the chat (the rule is
// above).
func shown(e SessionEntry) bool {
	if e.Type != "user" {
		return true
	}
	if e.IsCompactSummary {
		return false
	}
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(e.Message, &m) != nil {
		return false
	}
	c := bytes.TrimSpace(m.Content)
	switch {
	case len(c) == 0:
		return false
	case c[0] == '"':
		var s string
		return json.Unmarshal(c, &s) == nil && !isNoise(s)
	case c[0] == '[':
		return !allNoise(c)
	}
	return false
}

// allNoise reports whether a content list holds only noise text blocks (or
// nothing at all).
func allNoise(list []byte) bool {
	if bytes.Contains(list, []byte(`"tool_result"`)) {
		return false // a tool result is always shown: skip the decode
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(list, &blocks) != nil {
		return true
	}
	for _, b := range blocks {
		if b.Type != "text" || !isNoise(b.Text) {
			return false
		}
	}
	return true
}

func isNoise(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return true
	}
	for _, p := range noisePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
