package sdk

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/claude"
)

// TestImportedJSON: importedJSON gives what json.Marshal gives (the same
// JSON value), copying a large message once.
func TestImportedJSON(t *testing.T) {
	big := `{"role":"user","content":"` + strings.Repeat("<x & y>", 600_000) + `"}`
	cases := []importedLine{
		{Type: "user", Message: json.RawMessage(`{"role":"user","content":"hi"}`), UUID: "u1", SessionID: "c", Source: "chat"},
		{Type: "assistant", Message: json.RawMessage(`{"content":[]}`), UUID: "u\"2", SessionID: "c", Timestamp: "t",
			ToolUseResult: json.RawMessage(`{"stdout":"ok"}`), Aborted: true, Source: "terminal",
			Attachments: []attachmentRef{{ID: "a", Name: "n.png", MediaType: "image/png", Size: 3}}},
		{Type: "user", Message: json.RawMessage(big), UUID: "u3", SessionID: "c", Source: "chat"},
	}
	for i, l := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, err := importedJSON(l)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil || !reflect.DeepEqual(g, w) {
			t.Fatalf("case %d:\n got %.300s\nwant %.300s", i, got, want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; len(l.Message) > 1<<20 && alloc > uint64(len(got))*5/4 {
			t.Fatalf("a %d-byte message took %d bytes to encode", len(l.Message), alloc)
		}
	}
}

// TestImportNotesTooLongLines: a session-file line over the line limit
// (32 MiB) is not imported, and the chat says how many were left out.
func TestImportNotesTooLongLines(t *testing.T) {
	cfg, cwd := t.TempDir(), t.TempDir()
	huge := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", claude.MaxLineSize) + `"},"uuid":"c0000000-0000-4000-8000-0000000000ff"}`
	lines := append(append([]string{}, terminalLines[:2]...), huge)
	writeSessionFile(t, claude.SessionFilePath(cfg, cwd, importConv), lines)
	h := newHarness(t, harnessOptions{conv: importConv, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	waitImported(t, h)
	isNote := func(f frame) bool { return f.stored() && f.Message.Subtype == "agentdesk_import_failed" }
	a := attach(t, h.rt, "")
	a.seenOrUntil(isNote)
	var note struct{ Message string }
	for _, f := range a.frames {
		if isNote(f) {
			if err := json.Unmarshal(f.Raw, &note); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !strings.HasPrefix(note.Message, "1 earlier message(s)") || !strings.Contains(note.Message, "larger than 32 MiB") {
		t.Fatalf("note %q", note.Message)
	}
	for _, f := range a.frames {
		if strings.Contains(string(f.Raw), "xxxxxxxx") {
			t.Fatal("the over-long line was imported")
		}
	}
}
