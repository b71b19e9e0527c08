package claude

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// shownByDecode is shown as it was, decoding the whole content: the
// reference the cheaper shown must agree with.
func shownByDecode(e SessionEntry) bool {
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

func FuzzShown(f *testing.F) {
	long := strings.Repeat("é\\n\\\\ \\u00e9", 1000)
	for _, s := range []string{
		`{"role":"user","content":"hello"}`,
		`{"content":"  <command-name>/compact</command-name>"}`,
		`{"content":"` + strings.Repeat(" ", 5000) + `<system-reminder>x"}`,
		`{"content":"` + long + `<command-name>"}`,
		`{"content":"` + strings.Repeat("\\n", 3000) + `hi"}`,
		`{"content":[{"type":"text","text":"<system-reminder>"}]}`,
		`{"content":"a","content":"<command-args>"}`,
		`{"cont\u0065nt":"<command-args>"}`,
		`{"content":null}`,
		`{"content":7}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		line := `{"type":"user","message":` + msg + `}`
		e, err := ParseSessionLine([]byte(line))
		if err != nil {
			return // not an entry the import gets
		}
		if got, want := shown(e), shownByDecode(e); got != want {
			t.Fatalf("shown(%q) = %v, decoding all of it says %v", msg, got, want)
		}
	})
}

// TestShownDoesNotCopyALongPrompt: telling whether a 30 MB prompt is
// noise decodes its start, not all of it.
func TestShownDoesNotCopyALongPrompt(t *testing.T) {
	line := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("line\\n", 5<<20) + `"}}`
	e, err := ParseSessionLine([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ok := shown(e)
	runtime.ReadMemStats(&after)
	if !ok {
		t.Fatal("a prompt is not noise")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("looking at a %d MiB prompt allocated %d KiB", len(line)>>20, alloc>>10)
	}
}
