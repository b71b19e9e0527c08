package claude_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// writeSession writes lines (each followed by a newline) to a temp file.
func writeSession(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScanSessionSkips(t *testing.T) {
	tool := fixtureLine1(t, "g_session_file_tool_use.trimmed.jsonl", 23) // the tool result line
	path := writeSession(t,
		`{"type":"queue-operation","operation":"enqueue","content":"x"}`,
		cliUser,
		"",
		"not json at all",
		`{"type":"assistant","message":{"content":[]},"isSidechain":true}`,
		`{"type":"user","message":{"content":"<local-command-caveat>…"},"isMeta":true}`,
		`{"type":"brand-new-kind","uuid":"z"}`,
		`{"type":"assistant","message":{"content":[`, // cut by a crash mid-write
		tool,
		"  \r",
		cliAssistant, // the last line has no newline
	)
	var uuids []string
	st, err := claude.ScanSession(path, func(e claude.SessionEntry) error {
		uuids = append(uuids, e.UUID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(uuids, " ") != "u1 fcc761ea-7f7f-43dc-a5a9-da1628d30cd0 a1" {
		t.Errorf("entries %q", uuids)
	}
	if want := (claude.SessionStats{Entries: 3, Skipped: 4, Malformed: 2}); st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}

	stop := errors.New("stop")
	n := 0
	_, err = claude.ScanSession(path, func(claude.SessionEntry) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("a callback error must stop the scan: %v after %d", err, n)
	}
}

// fixtureLine1 returns line n (1-based) of a fixture.
func fixtureLine1(t *testing.T, name string, n int) string {
	t.Helper()
	data, err := os.ReadFile(fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")[n-1]
}

func TestScanSessionLongLine(t *testing.T) {
	const limit = 1 << 20
	defer claude.SetMaxLineSize(limit)()
	long := `{"type":"user","message":{"content":"` + strings.Repeat("x", limit) + `"}}`
	path := writeSession(t, cliUser, long, cliAssistant+"\n")
	st, err := claude.ScanSession(path, func(claude.SessionEntry) error { return nil })
	if err != nil || st != (claude.SessionStats{Entries: 2, Malformed: 1, TooLong: 1}) {
		t.Fatalf("ScanSession: %+v, %v", st, err)
	}
	// A line at the limit is read whole, across many buffer fills.
	pad := limit - len(`{"type":"user","uuid":"big","message":{"content":""}}`)
	big := `{"type":"user","uuid":"big","message":{"content":"` + strings.Repeat("y", pad) + `"}}`
	entries, err := claude.ReadSession(writeSession(t, big, cliAssistant))
	if err != nil || len(entries) != 2 || entries[0].UUID != "big" || len(entries[0].Message) < pad {
		t.Fatalf("big line: %d entries, %v", len(entries), err)
	}
}

func TestReadSessionMissing(t *testing.T) {
	entries, err := claude.ReadSession(filepath.Join(t.TempDir(), "none.jsonl"))
	if err != nil || len(entries) != 0 {
		t.Errorf("missing file: %d entries, %v", len(entries), err)
	}
	if _, err := claude.ReadSession(t.TempDir()); err == nil {
		t.Error("a directory is not a session file")
	}
}

// FuzzParseSessionLine checks ParseSessionLine against encoding/json.
func FuzzParseSessionLine(f *testing.F) {
	for _, name := range sessionFixtures {
		data, err := os.ReadFile(fixture(f, name))
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			f.Add(line)
		}
	}
	f.Add([]byte(cliUser))
	f.Add([]byte(`{"t\u0079pe":"user","message":{},"isMeta":true,"isMeta":false}`))
	f.Add([]byte(`{"type":"assistant","message":{"a":[1e5,-0.5,true,null]},"toolUseResult":null,"uuid":"\ud800"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := claude.ParseSessionLine(b)
		want, wantErr := sessionReference(b)
		if !errors.Is(err, wantErr) || (err == nil) != (wantErr == nil) {
			t.Fatalf("ParseSessionLine(%q) err = %v, want %v", b, err, wantErr)
		}
		if !sameEntry(got, want) {
			t.Fatalf("ParseSessionLine(%q) = %+v, encoding/json gives %+v", b, got, want)
		}
	})
}

// sameEntry compares entries field by field, raw JSON by bytes (nil and
// empty differ).
func sameEntry(a, b claude.SessionEntry) bool {
	if (a.Message == nil) != (b.Message == nil) || (a.ToolUseResult == nil) != (b.ToolUseResult == nil) ||
		!bytes.Equal(a.Message, b.Message) || !bytes.Equal(a.ToolUseResult, b.ToolUseResult) {
		return false
	}
	a.Message, a.ToolUseResult, b.Message, b.ToolUseResult = nil, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// sessionReference decodes a line with encoding/json by ParseSessionLine's
// documented rules.
func sessionReference(b []byte) (claude.SessionEntry, error) {
	var m map[string]json.RawMessage
	if !json.Valid(b) || json.Unmarshal(b, &m) != nil || m == nil {
		return claude.SessionEntry{}, claude.ErrBadSessionLine
	}
	str := func(k string) string { var s string; json.Unmarshal(m[k], &s); return s }
	is := func(k string) bool { return string(m[k]) == "true" }
	e := claude.SessionEntry{
		Type: str("type"), UUID: str("uuid"), ParentUUID: str("parentUuid"), SessionID: str("sessionId"),
		Timestamp: str("timestamp"), Entrypoint: str("entrypoint"), IsSidechain: is("isSidechain"),
		IsMeta: is("isMeta"), IsCompactSummary: is("isCompactSummary"), IsAbortedMidStream: is("isAbortedMidStream"),
	}
	if msg := m["message"]; len(msg) > 0 && msg[0] == '{' {
		e.Message = msg
	}
	if r := m["toolUseResult"]; len(r) > 0 && string(r) != "null" {
		e.ToolUseResult = r
	}
	switch {
	case e.Type == "":
		return claude.SessionEntry{}, claude.ErrBadSessionLine
	case e.Type != "user" && e.Type != "assistant", e.IsSidechain, e.IsMeta:
		return e, claude.ErrNotConversation
	case e.Message == nil:
		return e, claude.ErrBadSessionLine
	}
	return e, nil
}

// BenchmarkScanSession reads a 5 MB session file made of the recorded
// ones, repeated.
func BenchmarkScanSession(b *testing.B) {
	var lines []string
	for size := 0; size < 5<<20; {
		for _, name := range sessionFixtures {
			data, err := os.ReadFile(fixture(b, name))
			if err != nil {
				b.Fatal(err)
			}
			lines = append(lines, strings.TrimSpace(string(data)))
			size += len(data)
		}
	}
	path := filepath.Join(b.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	for b.Loop() {
		st, err := claude.ScanSession(path, func(claude.SessionEntry) error { return nil })
		if err != nil || st.Entries == 0 {
			b.Fatal(st, err)
		}
	}
}

// TestScanSessionLongLineReadOnce: a line far longer than the read buffer
// costs its own size in memory, once (joining its pieces cost twice), and
// a line over the limit costs nothing: it is skipped, not gathered. The
// last line has no newline.
func TestScanSessionLongLineReadOnce(t *testing.T) {
	const size = 8 << 20
	defer claude.SetMaxLineSize(size + 1000)()
	long := `{"type":"user","uuid":"long","message":{"content":"` + strings.Repeat("x", size) + `"}}`
	tooLong := `{"type":"user","message":{"content":"` + strings.Repeat("y", size+1000) + `"}}`
	path := writeSession(t, cliUser, tooLong, long)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got []int
	st, err := claude.ScanSession(path, func(e claude.SessionEntry) error {
		got = append(got, len(e.Message))
		return nil
	})
	runtime.ReadMemStats(&after)
	if err != nil || st != (claude.SessionStats{Entries: 2, Malformed: 1, TooLong: 1}) || len(got) != 2 || got[1] < size {
		t.Fatalf("ScanSession: %+v, %v, messages %v", st, err, got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size*5/4+1<<20 {
		t.Fatalf("reading an %d MiB line allocated %d MiB", size>>20, alloc>>20)
	}
}
