package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/agentdesk/agentdesk/internal/markdown"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// renderHTMLReference is renderHTML as it was before textBlocks: a full
// json.Unmarshal and json.Marshal of a map. The fast path must give the
// same bytes.
func renderHTMLReference(raw []byte) ([]byte, error) {
	if !bytes.Contains(raw, []byte(`"text"`)) {
		return nil, nil
	}
	var a assistantLine
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	var out map[string]string
	for i, c := range a.Message.Content {
		if c.Type != "text" || c.Text == "" {
			continue
		}
		h, err := markdown.Render(c.Text)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]string{}
		}
		out[strconv.Itoa(i)] = h
	}
	if out == nil {
		return nil, nil
	}
	return json.Marshal(out)
}

// textBlockCases are lines aimed at textBlocks' refusals and edge cases.
var textBlockCases = []string{
	`{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}`,
	`{"message":{"content":[{"text":"a","type":"text"},{"type":"tool_use","input":{"text":"x"}},{"type":"text","text":""}]}}`,
	`{"message":{"content":[{"type":"text","text":"<b>\u003c&amp;\n\u2028 é"}]}}`,
	`{"message":{"content":[` + repeatBlocks(12) + `]}}`,
	`{"Message":{"content":[{"type":"text","text":"case"}]}}`,
	`{"message":{"Content":[{"type":"text","text":"case"}]}}`,
	`{"message":{"content":[{"TYPE":"text","text":"case"}]}}`,
	`{"message":{"content":[{"type":"text","Text":"case"}]}}`,
	`{"mess\u0061ge":{"content":[{"type":"text","text":"escaped key"}]}}`,
	`{"meſſage":{"content":[{"type":"text","text":"fold"}]}}`,
	`{"message":{"content":[{"type":"text","text":"a"}]},"message":{"content":[{"type":"text","text":"b"}]}}`,
	`{"message":{"content":[{"type":"text","text":"a"}],"content":[]}}`,
	`{"message":{"content":[{"type":"text","text":"a","text":"b"}]}}`,
	`{"message":{"content":[{"type":"tool_use","type":"text","text":"b"}]}}`,
	`{"message":null}`, `{"message":{"content":null}}`, `{"message":{"content":"text"}}`,
	`{"message":{"content":[null,{"type":"text","text":"x"}]}}`,
	`{"message":{"content":[{"type":null,"text":"x"}]}}`,
	`{"message":{"content":[{"type":"text","text":5}]}}`,
	`{"message":{"content":[{"type":"text","text":"x"}]}} trailing`,
	`{"message":{"content":[{"type":"text","text":"x"}]},}`,
	`{"message":{"content":[{"type":"text","text":"bad \x"}]}}`,
	"{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"\xff invalid utf8\"}]}}",
	`{"message":{"content":[{"type":"t\u0065xt","text":"escaped type"}]}}`,
	`{"a":[1,-2.5e+3,true,false,null,{"b":[]}],"message":{"content":[{"type":"text","text":"n"}]}}`,
	`{"a":01,"message":{"content":[{"type":"text","text":"n"}]}}`,
	`[{"type":"text","text":"x"}]`, `"text"`, ``, `{`,
	` { "message" : { "content" : [ { "type" : "text" , "text" : "spaced" } ] } } `,
}

func repeatBlocks(n int) string {
	var b bytes.Buffer
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"text","text":"block ` + strconv.Itoa(i) + `"}`)
	}
	return b.String()
}

// fixtureLines returns every line of the recorded CLI sessions.
func fixtureLines(t testing.TB) [][]byte {
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Skipf("no fixtures: %v", err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	var lines [][]byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
	}
	return lines
}

func checkSameHTML(t *testing.T, raw []byte) {
	t.Helper()
	want, wantErr := renderHTMLReference(raw)
	got, _, err := renderHTML(raw)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("line %q:\n got %s (%v)\nwant %s (%v)", raw, got, err, want, wantErr)
	}
}

func TestTextBlocksMatchesUnmarshal(t *testing.T) {
	lines := fixtureLines(t)
	for _, c := range textBlockCases {
		lines = append(lines, []byte(c))
	}
	lines = append(lines, benchLine(7).Raw)
	fast := 0
	for _, raw := range lines {
		checkSameHTML(t, raw)
		if _, ok := textBlocks(raw); ok {
			fast++
		}
	}
	if fast < len(lines)/2 {
		t.Errorf("only %d of %d lines took the fast path", fast, len(lines))
	}
	// Refusals must be refusals, not silent mismatches.
	for _, c := range textBlockCases[4:14] {
		if _, ok := textBlocks([]byte(c)); ok {
			t.Errorf("textBlocks accepted %s", c)
		}
	}
}

func FuzzTextBlocks(f *testing.F) {
	addFixtureLines(f)
	for _, c := range textBlockCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		blocks, ok := textBlocks(raw)
		if !ok {
			return
		}
		want, err := decodeTextBlocks(raw)
		if err != nil {
			t.Fatalf("textBlocks accepted %q, json.Unmarshal: %v", raw, err)
		}
		if !slices.Equal(blocks, want) {
			t.Fatalf("line %q: got %v, want %v", raw, blocks, want)
		}
	})
}
