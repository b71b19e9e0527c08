package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
	"github.com/agentdesk/agentdesk/persist"
)

const importConv = "0190a000-0000-7000-8000-00000000beef"

// Lines of a session file written by the terminal UI (entrypoint "cli"),
// shaped like those of an interactive `claude --resume` recorded against
// the fake API: a typed turn, a /compact with its records, a bash-mode
// turn, and bookkeeping.
var terminalLines = []string{
	`{"type":"file-history-snapshot","messageId":"x","snapshot":{},"isSnapshotUpdate":false}`,
	`{"parentUuid":"p","isSidechain":false,"promptId":"q1","type":"user","message":{"role":"user","content":"typed in terminal"},"uuid":"c0000000-0000-4000-8000-000000000001","timestamp":"2026-11-22T15:38:47.035Z","permissionMode":"auto","origin":{"kind":"human"},"promptSource":"typed","userType":"external","entrypoint":"cli","cwd":"/w","sessionId":"` + importConv + `","version":"2.1.330"}`,
	`{"type":"attachment","attachment":{"type":"auto_mode"},"entrypoint":"cli","isSidechain":false}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000001","isSidechain":false,"message":{"id":"msg_fake_0002","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"**Echo**: typed in terminal"}],"stop_reason":"end_turn","stop_sequence":null},"apiBlockIndex":0,"requestId":"req_fake_0002","type":"assistant","uuid":"c0000000-0000-4000-8000-000000000002","timestamp":"2026-11-22T15:38:47.100Z","entrypoint":"cli","sessionId":"` + importConv + `"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000002","isSidechain":false,"type":"system","subtype":"turn_duration","durationMs":70,"uuid":"c0000000-0000-4000-8000-000000000003","entrypoint":"cli","isMeta":false}`,
	`{"parentUuid":null,"logicalParentUuid":"c0000000-0000-4000-8000-000000000003","isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","uuid":"c0000000-0000-4000-8000-000000000004","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000004","isSidechain":false,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context."},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,"uuid":"c0000000-0000-4000-8000-000000000005","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000005","isSidechain":false,"type":"user","message":{"role":"user","content":"<local-command-caveat>The command below was run directly in Claude Code.</local-command-caveat>"},"isMeta":true,"uuid":"c0000000-0000-4000-8000-000000000006","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000006","isSidechain":false,"type":"user","message":{"role":"user","content":"<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>"},"uuid":"c0000000-0000-4000-8000-000000000007","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000007","isSidechain":false,"type":"user","message":{"role":"user","content":"<local-command-stdout>\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m</local-command-stdout>"},"uuid":"c0000000-0000-4000-8000-000000000008","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000008","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>\nnote\n</system-reminder>"}]},"uuid":"c0000000-0000-4000-8000-000000000009","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-000000000009","isSidechain":false,"type":"user","message":{"role":"user","content":"<bash-input>echo bashmode</bash-input>"},"uuid":"c0000000-0000-4000-8000-00000000000a","entrypoint":"cli"}`,
	`{"parentUuid":"c0000000-0000-4000-8000-00000000000a","isSidechain":false,"type":"user","message":{"role":"user","content":"<bash-stdout>bashmode</bash-stdout><bash-stderr></bash-stderr>"},"uuid":"c0000000-0000-4000-8000-00000000000b","entrypoint":"cli"}`,
	`{"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":[{"type":"text","text":"a subagent"}]},"uuid":"c0000000-0000-4000-8000-00000000000c","entrypoint":"cli"}`,
	`{"type":"a-line-type-from-the-future","uuid":"c0000000-0000-4000-8000-00000000000d"}`,
	`this line is garbage`,
	`{"type":"assistant","message":{"content":[{"type":"text","text":"cut by a cra`,
	`{"parentUuid":"c0000000-0000-4000-8000-00000000000b","isSidechain":false,"type":"user","message":{"role":"user","content":"typed in terminal"},"uuid":"c0000000-0000-4000-8000-000000000001","entrypoint":"cli"}`,
}

// terminalShown is how many of terminalLines the chat shows: the typed
// turn (2) and the bash-mode pair (2); the repeated uuid is dropped.
const terminalShown = 4

// fixtureSession returns the lines of a recorded session file.
func fixtureSession(t testing.TB, name string) []string {
	t.Helper()
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// writeSessionFile writes lines as the session file of conv in cfg/projects/<slug>.
func writeSessionFile(t testing.TB, path string, lines []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// importLine is the decoded message of an imported frame.
type importLine struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
	Source    string `json:"agentdeskSource"`
	Count     int    `json:"count"`
	Aborted   bool   `json:"aborted"`
	Message   struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

func decodeImported(t *testing.T, f frame) importLine {
	t.Helper()
	var l importLine
	if err := json.Unmarshal(f.Raw, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

func isImportMarker(f frame) bool {
	return f.Type == "sdk-message" && f.Message.Subtype == "agentdesk_imported"
}

// seenOrUntil returns at once when a frame read so far matches cond, else
// reads live frames until one does.
func (r *reader) seenOrUntil(cond func(frame) bool) {
	r.t.Helper()
	for _, f := range r.frames {
		if cond(f) {
			return
		}
	}
	r.until(cond)
}

// waitImported waits for the import of h's runtime to end.
func waitImported(t *testing.T, h *harness) {
	t.Helper()
	select {
	case <-h.rt.imported:
	case <-time.After(waitFor):
		t.Fatal("the import never ended")
	}
}

func TestImportHistory(t *testing.T) {
	cfg, cwd := t.TempDir(), t.TempDir()
	lines := append(fixtureSession(t, "g_session_file_long_lived.trimmed.jsonl"), terminalLines...)
	writeSessionFile(t, claude.SessionFilePath(cfg, cwd, importConv), lines)
	h := newHarness(t, harnessOptions{conv: importConv, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	send(t, h, "after the switch") // waits for the import
	a := attach(t, h.rt, "")
	a.until(isResult)

	const chat = 9 // the recorded stream-json session: 5 user, 4 assistant entries
	n := chat + terminalShown
	stored := storedOf(a.frames)
	var got []importLine
	for i, raw := range stored[:n+1] {
		f := decode(t, raw)
		if f.Seq != uint64(i+1) {
			t.Fatalf("frame %d has seq %d", i, f.Seq)
		}
		l := decodeImported(t, f)
		if l.SessionID != importConv || l.UUID == "" {
			t.Errorf("frame %d: session %q uuid %q", i, l.SessionID, l.UUID)
		}
		if l.Type == "assistant" && strings.Contains(string(l.Message.Content), `"text"`) && len(f.HTML) == 0 {
			t.Errorf("assistant frame %d has no html: %s", i, raw)
		}
		got = append(got, l)
	}
	var sources []string
	for _, l := range got[:n] {
		sources = append(sources, l.Type[:1]+":"+l.Source)
	}
	want := "u:chat a:chat u:chat a:chat u:chat a:chat u:chat u:chat a:chat " +
		"u:terminal a:terminal u:terminal u:terminal"
	if s := strings.Join(sources, " "); s != want {
		t.Errorf("imported\n got %s\nwant %s", s, want)
	}
	if !got[5].Aborted || got[4].Aborted {
		t.Error("the block cut by the interrupt is not marked aborted")
	}
	if string(got[0].Message.Content) != `"hello"` || string(got[chat].Message.Content) != `"typed in terminal"` {
		t.Errorf("contents %s, %s", got[0].Message.Content, got[chat].Message.Content)
	}
	if m := got[n]; m.Type != "system" || m.Subtype != "agentdesk_imported" || m.Count != n {
		t.Errorf("marker %+v", m)
	}
	if th := decode(t, stored[chat+1]).HTML["0"]; !strings.Contains(th, "<strong>Echo</strong>") {
		t.Errorf("terminal answer html %q", th)
	}
	for _, raw := range stored {
		for _, noise := range []string{"command-name", "local-command", "system-reminder", "being continued", "subagent", "cut by a cra"} {
			if strings.Contains(string(raw), noise) {
				t.Errorf("noise %q imported: %s", noise, raw)
			}
		}
	}
	if u := decode(t, stored[n+1]); u.Seq != uint64(n+2) || u.Message.Type != "user" || !strings.Contains(string(u.Raw), "after the switch") {
		t.Errorf("the first user message follows the import: %s", stored[n+1])
	}
	for _, f := range a.frames {
		if f.Type == "error" {
			t.Errorf("error frame %s", f.raw)
		}
	}
	if args := h.args(); len(args) != 1 || !strings.Contains(args[0], "--resume "+importConv) {
		t.Errorf("CLI args %q", args)
	}
	sameFrames(t, stored, storedFrames(t, h.store))
}

// The imported history is a past turn: the worker stays idle throughout.
func TestImportKeepsIdle(t *testing.T) {
	cfg, cwd := t.TempDir(), t.TempDir()
	writeSessionFile(t, claude.SessionFilePath(cfg, cwd, importConv), terminalLines)
	h := newHarness(t, harnessOptions{conv: importConv, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	a := attach(t, h.rt, "")
	a.seenOrUntil(isImportMarker)
	for _, f := range a.frames {
		if f.Type == "activity" && f.State != "idle" {
			t.Errorf("activity %s during the import", f.State)
		}
	}
	msgs, more, err := h.rt.Messages("", 0)
	if err != nil || more || len(msgs) != terminalShown+1 {
		t.Errorf("Messages: %d, %v, %v", len(msgs), more, err)
	}
	if h.rt.Activity() != "idle" {
		t.Errorf("activity %s", h.rt.Activity())
	}
}

// --resume appends to the file of the directory the conversation started
// in: a session whose cwd maps elsewhere is found by the scan.
func TestImportFallbackScan(t *testing.T) {
	cfg, cwd := t.TempDir(), t.TempDir()
	writeSessionFile(t, filepath.Join(cfg, "projects", "-somewhere-else", importConv+".jsonl"), terminalLines)
	writeSessionFile(t, filepath.Join(cfg, "projects", "-somewhere-else", "0190a000-0000-7000-8000-000000000000.jsonl"),
		fixtureSession(t, "g_session_file_tool_use.trimmed.jsonl"))
	h := newHarness(t, harnessOptions{conv: importConv, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	waitImported(t, h)
	if err := <-h.store.Barrier(); err != nil { // the import's commits are done
		t.Fatal(err)
	}
	if msgs := storedFrames(t, h.store); len(msgs) != terminalShown+1 {
		t.Fatalf("imported %d frames, want %d", len(msgs), terminalShown+1)
	}
}

// No import: a restored worker, a log that is not empty, a new
// conversation, a stopped worker, a missing or empty file.
func TestNoImport(t *testing.T) {
	tests := []struct {
		name     string
		lines    []string // the session file; nil: none
		restored bool
		stopped  bool
		conv     string
		prior    bool // the log already holds a message
	}{
		{"restored", terminalLines, true, false, importConv, false},
		{"stopped", terminalLines, false, true, importConv, false},
		{"log not empty", terminalLines, false, false, importConv, true},
		{"new conversation", terminalLines, false, false, "", false},
		{"no file", nil, false, false, importConv, false},
		{"nothing to show", []string{"garbage", `{"type":"user","isMeta":true,"message":{"content":"x"}}`}, false, false, importConv, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, cwd := t.TempDir(), t.TempDir()
			if tt.lines != nil {
				writeSessionFile(t, claude.SessionFilePath(cfg, cwd, importConv), tt.lines)
			}
			st, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			want := 0
			if tt.prior {
				if err := <-st.AppendMessages("w1", []persist.Message{{Seq: 1, UUID: "x", Data: []byte(`{}`)}}); err != nil {
					t.Fatal(err)
				}
				want = 1
			}
			o := harnessOptions{store: st, conv: tt.conv, cwd: cwd, restored: tt.restored, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}}
			if tt.stopped {
				o.status = "stopped"
			}
			h := newHarness(t, o)
			waitImported(t, h)
			h.stop() // the publisher has drained: the log is final
			if msgs := storedFrames(t, st); len(msgs) != want {
				t.Errorf("log has %d messages, want %d", len(msgs), want)
			}
		})
	}
}

// Stop during a large import ends it early, leaving a consistent log.
func TestStopDuringImport(t *testing.T) {
	cfg, cwd := t.TempDir(), t.TempDir()
	writeSessionFile(t, claude.SessionFilePath(cfg, cwd, importConv), syntheticSession(2<<20))
	h := newHarness(t, harnessOptions{conv: importConv, cwd: cwd, env: []string{"CLAUDE_CONFIG_DIR=" + cfg}})
	// Part of the history is stored: in the replay, or in a notice.
	attach(t, h.rt, "").until(func(f frame) bool { return f.Type == "sdk-message" || f.Type == "history-appended" })
	h.stop()
	waitImported(t, h)
	msgs := storedFrames(t, h.store)
	for i, m := range msgs {
		if m.Seq != uint64(i+1) {
			t.Fatalf("message %d has seq %d", i, m.Seq)
		}
	}
	if len(msgs) == 0 || strings.Contains(string(msgs[len(msgs)-1].Data), "agentdesk_imported") {
		t.Errorf("%d messages: the stop did not cut the import short", len(msgs))
	}
}
