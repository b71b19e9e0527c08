package transcript

import (
	"strings"
	"testing"
)

func render(t *testing.T, line string) string {
	t.Helper()
	var b strings.Builder
	if err := WriteMessage(&b, []byte(line)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestToolOutputCannotCloseItsFence(t *testing.T) {
	out := render(t, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"a\n`+"```"+`\n# not a heading"}]}}`)
	if !strings.Contains(out, "## Tool result") || !strings.Contains(out, "````\na\n```\n# not a heading\n````") {
		t.Fatalf("fence:\n%s", out)
	}
}

func TestLongToolOutputIsCut(t *testing.T) {
	big := strings.Repeat("é", maxToolOutput) // 2 bytes each: the cut falls inside a rune
	out := render(t, `{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"`+big+`"}]}]}}`)
	if len(out) > maxToolOutput+200 || !strings.Contains(out, "more bytes)") || strings.ContainsRune(out, '\uFFFD') {
		t.Fatalf("cut: %d bytes, tail %q", len(out), out[len(out)-60:])
	}
}

func TestSilentLinesWriteNothing(t *testing.T) {
	for _, l := range []string{
		`{"type":"system","subtype":"init"}`,
		`{"type":"stream_event","event":{}}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"  "}]}}`,
	} {
		if out := render(t, l); out != "" {
			t.Fatalf("%s wrote %q", l, out)
		}
	}
	if err := WriteMessage(&strings.Builder{}, []byte("{")); err == nil {
		t.Fatal("broken JSON: no error")
	}
}

func TestSubagentAndThinking(t *testing.T) {
	out := render(t, `{"type":"assistant","parent_tool_use_id":"tu1","message":{"content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"done"}]}}`)
	if !strings.Contains(out, "## Claude (subagent)") || !strings.Contains(out, "<summary>Thinking</summary>\n\nhmm") {
		t.Fatalf("subagent:\n%s", out)
	}
}
