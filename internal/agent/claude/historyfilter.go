package claude

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentdesk/agentdesk/internal/jsonscan"
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
	c := bytes.TrimSpace(content(e.Message))
	switch {
	case len(c) == 0:
		return false
	case c[0] == '"':
		s, ok := textStart(c)
		return ok && !isNoise(s)
	case c[0] == '[':
		return !allNoise(c)
	}
	return false
}

// content returns the raw "content" of a message object, sliced from it:
// a 30 MB prompt is not copied to be looked at. The message was validated
// by the session file's scanner.
func content(msg json.RawMessage) []byte {
	s := jsonscan.Scanner{B: msg, MaxDepth: 10000}
	s.WS()
	var val []byte
	found := false
	ok := s.Members(1, func(key []byte) (bool, bool) {
		if string(key) != `"content"` {
			return false, true
		}
		v := s.I
		if !s.Value(1) {
			return true, false
		}
		val, found = msg[v:s.I], true // the last one wins, as with encoding/json
		return true, true
	})
	if ok && found {
		return val
	}
	var m struct {
		Content json.RawMessage `json:"content"` // an escaped key, say
	}
	if json.Unmarshal(msg, &m) != nil {
		return nil
	}
	return m.Content
}

// maxNoiseCheck bounds how much of a user text is decoded to tell noise
// from a prompt: the prefixes are short.
const maxNoiseCheck = 4 << 10

// textStart decodes the start of the JSON string raw: all of it, or its
// first maxNoiseCheck bytes or so, cut between two characters (never in an
// escape), unless they are all blank.
func textStart(raw []byte) (string, bool) {
	i := 1
	for i < len(raw) && i <= maxNoiseCheck {
		switch raw[i] {
		case '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
		case '"':
			i = len(raw) // the whole string fits
		default:
			i++
		}
	}
	var s string
	if i < len(raw) {
		head := append(append(make([]byte, 0, i+1), raw[:i]...), '"')
		if json.Unmarshal(head, &s) == nil && strings.TrimSpace(s) != "" {
			return s, true
		}
	}
	return s, json.Unmarshal(raw, &s) == nil
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
