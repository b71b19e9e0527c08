package claude_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// fixtureLine is one CLI line from the fixtures, with where it came from.
type fixtureLine struct {
	where string
	raw   []byte
}

// fixtureLines returns every raw stdout line (*.jsonl that are not
// transcripts or trimmed dumps), every stdin/stdout msg of the transcripts,
// and every line of the trimmed session files.
func fixtureLines(tb testing.TB) []fixtureLine {
	tb.Helper()
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		tb.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fixtures in %s: %v", dir, err)
	}
	var out []fixtureLine
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasSuffix(name, ".trimmed.jsonl") && !strings.HasPrefix(name, "g_session_file") {
			continue // API request dumps, not CLI lines
		}
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for i, raw := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			where := name + ":" + strconv.Itoa(i+1)
			if !strings.HasSuffix(name, ".transcript.jsonl") {
				out = append(out, fixtureLine{where, raw})
				continue
			}
			var t struct {
				Dir string          `json:"dir"`
				Msg json.RawMessage `json:"msg"`
			}
			if err := json.Unmarshal(raw, &t); err != nil {
				tb.Fatalf("%s: %v", where, err)
			}
			if (t.Dir == "stdout" || t.Dir == "stdin") && bytes.HasPrefix(t.Msg, []byte("{")) {
				out = append(out, fixtureLine{where + " " + t.Dir, t.Msg})
			}
		}
	}
	return out
}

// reference decodes a line with encoding/json, independently of ParseLine
// and by its documented rules; ok is false when ParseLine must fail.
func reference(raw []byte) (l claude.Line, ok bool) {
	var m map[string]any
	if !json.Valid(raw) || json.Unmarshal(raw, &m) != nil || m == nil {
		return l, false
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	l = claude.Line{Type: str(m, "type"), Subtype: str(m, "subtype"), UUID: str(m, "uuid")}
	switch l.Type {
	case "":
		return l, false
	case "control_request":
		req, _ := m["request"].(map[string]any)
		l.Subtype, l.RequestID = str(req, "subtype"), str(m, "request_id")
	case "control_response":
		resp, _ := m["response"].(map[string]any)
		l.Subtype, l.RequestID = str(resp, "subtype"), str(resp, "request_id")
	}
	return l, true
}

func TestParseLineFixtures(t *testing.T) {
	lines := fixtureLines(t)
	types := map[string]int{}
	for _, fl := range lines {
		got, err := claude.ParseLine(fl.raw)
		if err != nil {
			t.Errorf("%s: %v", fl.where, err)
			continue
		}
		w, ok := reference(fl.raw)
		if !ok {
			t.Fatalf("%s: not a JSON object with a type", fl.where)
		}
		if !sameHead(got, w) {
			t.Errorf("%s: got %q/%q uuid %q req %q, want %q/%q uuid %q req %q", fl.where,
				got.Type, got.Subtype, got.UUID, got.RequestID, w.Type, w.Subtype, w.UUID, w.RequestID)
		}
		if !bytes.Equal(got.Raw, fl.raw) {
			t.Errorf("%s: Raw is not the input", fl.where)
		}
		types[got.Type+"/"+got.Subtype]++
	}
	// The fixtures hold every kind of line the driver dispatches on.
	for _, k := range []string{"system/init", "system/status", "system/api_retry", "assistant/",
		"user/", "stream_event/", "result/success", "result/error_during_execution",
		"control_request/can_use_tool", "control_request/initialize", "control_response/success",
		"control_response/error"} {
		if types[k] == 0 {
			t.Errorf("no %s line among %d fixture lines", k, len(lines))
		}
	}
	t.Logf("%d fixture lines: %v", len(lines), types)
}

func TestParseLineSpecific(t *testing.T) {
	tests := []struct {
		name, in string
		want     claude.Line
		bad      bool
	}{
		{"can_use_tool", `{"type":"control_request","request_id":"c5","request":{"subtype":"can_use_tool","tool_name":"Bash"}}`,
			claude.Line{Type: "control_request", Subtype: "can_use_tool", RequestID: "c5"}, false},
		{"control error", `{"type":"control_response","response":{"subtype":"error","request_id":"c3","error":"x"}}`,
			claude.Line{Type: "control_response", Subtype: "error", RequestID: "c3"}, false},
		{"assistant request_id is not a control id", `{"type":"assistant","request_id":"req_1","uuid":"u1"}`,
			claude.Line{Type: "assistant", UUID: "u1"}, false},
		{"key order", `{"uuid":"u","subtype":"success","type":"result"}`,
			claude.Line{Type: "result", Subtype: "success", UUID: "u"}, false},
		{"null subtype", `{"type":"system","subtype":null}`, claude.Line{Type: "system"}, false},
		{"not json", `Warning: no stdin data received in 3s`, claude.Line{}, true},
		{"no type", `{"subtype":"init"}`, claude.Line{}, true},
		{"array", `[1,2]`, claude.Line{}, true},
		{"type not string", `{"type":5}`, claude.Line{}, true},
		{"request not an object", `{"type":"control_request","request":"x","request_id":"r"}`,
			claude.Line{Type: "control_request", RequestID: "r"}, false},
		{"uuid not a string", `{"type":"user","uuid":5}`, claude.Line{Type: "user"}, false},
		{"escaped key and value", `{"t\u0079pe":"a\u00e9","uuid":"\u0075"}`, claude.Line{Type: "aé", UUID: "u"}, false},
		{"last duplicate wins", `{"type":"a","type":"b"}`, claude.Line{Type: "b"}, false},
		{"whitespace", " \t{ \"type\" : \"x\" }\r", claude.Line{Type: "x"}, false},
		{"empty type", `{"type":""}`, claude.Line{}, true},
		{"trailing data", `{"type":"a"} {}`, claude.Line{}, true},
		{"trailing comma", `{"type":"a",}`, claude.Line{}, true},
		{"bad number", `{"type":"a","n":01}`, claude.Line{}, true},
		{"bad escape", `{"type":"a\x"}`, claude.Line{}, true},
		{"control char", "{\"type\":\"a\tb\"}", claude.Line{}, true},
		{"unclosed", `{"type":"a","x":[1,{"y":2}`, claude.Line{}, true},
		{"empty", ``, claude.Line{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := claude.ParseLine([]byte(tt.in))
			if tt.bad != (err != nil) {
				t.Fatalf("err = %v, want bad=%v", err, tt.bad)
			}
			if tt.bad && !errors.Is(err, claude.ErrBadLine) {
				t.Errorf("err = %v, want ErrBadLine", err)
			}
			if string(got.Raw) != tt.in {
				t.Errorf("Raw = %q", got.Raw)
			}
			if !sameHead(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// sameHead compares the decoded fields of two lines.
func sameHead(a, b claude.Line) bool {
	return a.Type == b.Type && a.Subtype == b.Subtype && a.UUID == b.UUID && a.RequestID == b.RequestID
}

func FuzzParseLine(f *testing.F) {
	for _, fl := range fixtureLines(f) {
		f.Add(fl.raw)
	}
	f.Add([]byte(`{"type":"control_response","response":null}`))
	f.Add([]byte(`{"type":"control_request","request":[]}`))
	f.Add([]byte(`{"t\u0079pe":"x","type":"y","uuid":"\ud800"}`))
	f.Add([]byte(`{"type":"a","x":[1e5,-0.5,true,false,null,{"":[]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := claude.ParseLine(b)
		if !bytes.Equal(l.Raw, b) {
			t.Fatalf("Raw changed")
		}
		want, ok := reference(b)
		if ok != (err == nil) {
			t.Fatalf("ParseLine(%q) err = %v, encoding/json says ok=%v", b, err, ok)
		}
		if err != nil {
			if !errors.Is(err, claude.ErrBadLine) || l.Type != "" {
				t.Fatalf("bad line: err %v, line %+v", err, l)
			}
			return
		}
		if !sameHead(l, want) {
			t.Fatalf("ParseLine(%q) = %+v, encoding/json gives %+v", b, l, want)
		}
	})
}

// TestParseLineDepth: nesting is limited exactly as in encoding/json, and
// deep input does not crash the scanner.
func TestParseLineDepth(t *testing.T) {
	for _, depth := range []int{9999, 10000, 10001, 100000} {
		b := []byte(`{"type":"x","v":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + "}")
		_, err := claude.ParseLine(b)
		if _, ok := reference(b); ok != (err == nil) {
			t.Errorf("depth %d: err = %v, encoding/json ok = %v", depth, err, ok)
		}
	}
}

func BenchmarkParseLine(b *testing.B) {
	lines := fixtureLines(b)
	var size int64
	for _, fl := range lines {
		size += int64(len(fl.raw))
	}
	b.SetBytes(size / int64(len(lines)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := claude.ParseLine(lines[i%len(lines)].raw); err != nil {
			b.Fatal(err)
		}
	}
}
