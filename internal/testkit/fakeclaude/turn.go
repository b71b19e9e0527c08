package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/google/uuid"
)

// scriptLine is a line of a script file: raw stdout, or a transcript entry.
type scriptLine struct {
	Type string          `json:"type"`
	Dir  string          `json:"dir"`
	Msg  json.RawMessage `json:"msg"`
}

// loadScript reads a script into turns of stdout lines; a turn ends with
// its result line.
func loadScript(path string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	var turns [][]string
	var cur []string
	for i, raw := range bytes.Split(data, []byte("\n")) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		line, typ, err := scriptStdout(raw)
		if err != nil {
			return nil, fmt.Errorf("script %s line %d: %w", path, i+1, err)
		}
		if line == "" {
			continue
		}
		cur = append(cur, line)
		if typ == "result" {
			turns, cur = append(turns, cur), nil
		}
	}
	if len(cur) > 0 {
		turns = append(turns, cur)
	}
	if len(turns) == 0 {
		return nil, fmt.Errorf("script %s: no stdout lines", path)
	}
	return turns, nil
}

// scriptStdout returns the compact stdout line a script line stands for,
// and its type; "" when the line is not one to print.
func scriptStdout(raw []byte) (string, string, error) {
	var sl scriptLine
	if err := json.Unmarshal(raw, &sl); err != nil {
		return "", "", err
	}
	if sl.Dir == "" {
		return string(raw), sl.Type, nil
	}
	if sl.Dir != "stdout" || len(sl.Msg) == 0 || sl.Msg[0] != '{' {
		return "", "", nil
	}
	var msg struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(sl.Msg, &msg); err != nil {
		return "", "", err
	}
	if msg.Type == "control_response" {
		return "", "", nil // it answered the recorder's request; we answer our own
	}
	var b bytes.Buffer
	if err := json.Compact(&b, sl.Msg); err != nil {
		return "", "", err
	}
	return b.String(), msg.Type, nil
}

// playTurn plays the turn for user message m.
func (f *fake) playTurn(m inMsg) {
	switch {
	case f.hang:
		f.hangTurn(m)
	case f.big.count > 0:
		f.bigTurn()
	case f.flood > 0:
		f.floodTurn()
	case f.turns == nil:
		f.builtinTurn(promptText(m.Message.Content))
	default:
		turn := f.turns[min(f.next, len(f.turns)-1)]
		f.next++
		f.scriptTurn(turn)
	}
}

func (f *fake) scriptTurn(turn []string) {
	for _, line := range turn {
		if f.pollInterrupt() {
			f.interrupted()
			return
		}
		line = f.subst(line)
		var h struct {
			Type      string `json:"type"`
			IsError   bool   `json:"is_error"`
			RequestID string `json:"request_id"`
		}
		json.Unmarshal([]byte(line), &h)
		if h.Type == "result" {
			f.lastError = h.IsError
		}
		f.emit(line)
		if h.Type == "control_request" && !f.awaitResponse(h.RequestID) {
			return
		}
	}
}

// pollInterrupt handles the stdin lines already there and reports whether
// one was an interrupt.
func (f *fake) pollInterrupt() bool {
	for {
		select {
		case m, ok := <-f.in:
			if !ok {
				f.in, f.eof = nil, true // nil: never ready again
				return false
			}
			if f.handle(m) {
				return true
			}
		default:
			return false
		}
	}
}

// awaitResponse blocks until the answer to control request id arrives. It
// returns false when the turn ended instead (interrupt, or stdin closed).
func (f *fake) awaitResponse(id string) bool {
	for {
		m, ok := <-f.in
		if !ok {
			f.in, f.eof = nil, true
			return false
		}
		if m.Type == "control_response" && m.Response.RequestID == id {
			return true
		}
		if f.handle(m) {
			f.interrupted()
			return false
		}
	}
}

// interrupted ends a turn the way the CLI does after an interrupt request.
func (f *fake) interrupted() {
	f.emitJSON(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]string{"type": "text", "text": "[Request interrupted by user]"}}},
		"parent_tool_use_id": nil, "session_id": f.sessionID, "uuid": uuid.NewString()})
	f.emitJSON(map[string]any{"type": "result", "subtype": "error_during_execution", "is_error": true,
		"stop_reason": nil, "terminal_reason": "aborted_streaming", "session_id": f.sessionID,
		"uuid": uuid.NewString()})
	f.lastError = true
}

// promptText is the text of a user message's content (a string or blocks).
func promptText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type, Text string
	}
	json.Unmarshal(content, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
