package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestImportFailureIsStored: agentdesk's record says the conversation has
// begun, but its session file is not where agentdesk looks (a --claude
// wrapper with its own CLAUDE_CONFIG_DIR): the chat says why the earlier
// turns are missing, in a stored message that a tab opened later (or the
// REST history) shows too. The chat still works.
func TestImportFailureIsStored(t *testing.T) {
	h := newHarness(t, harnessOptions{conv: importConv, started: true, env: []string{"CLAUDE_CONFIG_DIR=" + t.TempDir()}})
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
	if !strings.Contains(note.Message, "CLAUDE_CONFIG_DIR") {
		t.Errorf("note %q does not say why", note.Message)
	}
	rest, _, err := h.rt.Messages("", 0)
	if err != nil || len(rest) != 1 || !strings.Contains(string(rest[0]), "agentdesk_import_failed") {
		t.Fatalf("REST history %s, %v: want the note", rest, err)
	}
	send(t, h, "go on")
	a.until(isResult)
	if a.frames[len(a.frames)-1].Seq != 5 {
		t.Errorf("result seq %d, want 5 (the note, then a turn)", a.frames[len(a.frames)-1].Seq)
	}
}
