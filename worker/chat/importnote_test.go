package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

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
