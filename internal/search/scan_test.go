package search

import (
	"strings"
	"testing"
)

// scanFrames are stored frames of every shape extract meets, and the odd
// ones where the narrow walk must step aside or agree with encoding/json.
var scanFrames = []string{
	`{"type":"sdk-message","seq":1,"message":{"type":"user","uuid":"u1","timestamp":"2026-03-04T05:06:07Z","message":{"role":"user","content":"hello there"}}}`,
	`{"type":"sdk-message","seq":2,"message":{"type":"assistant","uuid":"u2","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"run it"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./...","description":"x"}},{"type":"thinking","thinking":"secret"}]}}}`,
	`{"type":"sdk-message","message":{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{"file_path":"/a/b.go","old_string":"x"}},{"type":"tool_use","name":"Grep","input":{"pattern":"fo+","path":"src"}}]}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"tool_result","content":"big output"}]}}}`,
	`{"message":{"type":"system","message":{"content":"not indexed"}}}`,
	`{"message":{"type":"user","message":{"content":"  spaced \n "}}}`,
	`{"message":{"type":"user","message":{"content":"caf\u00e9 \"quoted\" \\ tab\t"}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"t\u0065xt","text":"escaped type"}]}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"text","text":"bad utf8 \xff here"}]}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"text","text":""},{"type":"text","text":"b"}]}}}`,
	`{"message":{"type":"user","message":{"content":[]}}}`,
	`{"message":{"type":"user","message":{"content":null}}}`,
	`{"message":{"type":"user","message":{"content":5}}}`,
	`{"message":{"type":"user","message":{"role":null,"content":"null role"}}}`,
	`{"message":{"type":"user","message":{"role":5,"content":"number role"}}}`,
	`{"message":{"Type":"user","message":{"content":"folded key"}}}`,
	`{"message":{"type":"user","TYPE":"assistant","message":{"content":"two keys"}}}`,
	`{"message":{"type":"user","type":"assistant","message":{"content":"duplicate"}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"text","text":"a","Text":"b"}]}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"text","text":"a"},null]}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":7}}]}}}`,
	`{"message":{"type":"user","message":{"content":[{"type":"tool_use","name":"Bash","input":null}]}}}`,
	`{"message":{"type":"user","message":{"content":"x"}}} trailing`,
	`{"message":{"type":"user","message":{"content":"x"}}`,
	`{"message":{"type":"user","\u006dessage":{"content":"escaped key"}}}`,
	`{"message":{"type":"user","timestamp":"yesterday","message":{"content":"bad time"}}}`,
	`[1,2]`,
	`{}`,
	``,
}

// TestScanFrameAgreesWithUnmarshal: extract, with the narrow walk, gives
// exactly what encoding/json gives, and the walk handles the usual frames
// itself (else it would save nothing).
func TestScanFrameAgreesWithUnmarshal(t *testing.T) {
	big := `{"message":{"type":"user","message":{"content":[` +
		strings.Repeat(`{"type":"text","text":"`+strings.Repeat("word ", 3000)+`"},`, 5) +
		`{"type":"text","text":"after"}]}}}`
	for i, f := range append(scanFrames, big) {
		checkScanAgrees(t, []byte(f))
		if i < 3 {
			if _, ok := scanFrame([]byte(f)); !ok {
				t.Errorf("frame %d left to encoding/json: %s", i, f)
			}
		}
	}
}

func checkScanAgrees(t *testing.T, f []byte) {
	t.Helper()
	got, gotOK := extract(f)
	want, wantOK := extractSlow(f)
	if len(f) > maxFrame {
		want, wantOK = extracted{}, false
	}
	if gotOK != wantOK || got != want {
		t.Fatalf("frame %.200q:\nscan %v %+v\njson %v %+v", f, gotOK, got, wantOK, want)
	}
}

func FuzzScanFrame(f *testing.F) {
	for _, s := range scanFrames {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScanAgrees(t, b) })
}
