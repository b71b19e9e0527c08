package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// addFixtureLines seeds f with the stdout lines of the recorded CLI.
func addFixtureLines(f *testing.F) {
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		f.Logf("no fixtures: %v", err)
		return
	}
	for _, name := range []string{"b_partial_tool_use.jsonl", "b_partial_text_thinking.jsonl", "c_api_error.jsonl"} {
		fh, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f.Add(bytes.Clone(sc.Bytes()))
		}
		fh.Close()
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"**hi** <b>x</b>"}]}}`))
}

// FuzzLineToFrame runs a CLI line through what the reader does to it: the
// uuid insertion, the html of its text blocks and the frame, and checks
// that every result is valid JSON that Messages can turn back into an
// element.
func FuzzLineToFrame(f *testing.F) {
	addFixtureLines(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) != nil || obj == nil {
			return // the driver hands over JSON objects only
		}
		_, had := obj["uuid"]
		msg, err := withUUID(line, "0190a000-0000-7000-8000-000000000000", had)
		if err != nil {
			t.Fatalf("withUUID(%s): %v", line, err)
		}
		var got struct {
			UUID string `json:"uuid"`
		}
		if err := json.Unmarshal(msg, &got); err != nil || got.UUID != "0190a000-0000-7000-8000-000000000000" {
			t.Fatalf("withUUID(%s) = %s (%v)", line, msg, err)
		}
		html, truncated, err := renderHTML(msg)
		if err == nil && html != nil {
			var m map[string]string
			if err := json.Unmarshal(html, &m); err != nil || len(m) == 0 {
				t.Fatalf("html %s: %v", html, err)
			}
		}
		frame := sdkFrame(7, msg, html, truncated)
		el, err := restElement(frame)
		if err != nil || !json.Valid(frame) || !json.Valid(el) {
			t.Fatalf("frame %s / element %s: %v", frame, el, err)
		}
	})
}
