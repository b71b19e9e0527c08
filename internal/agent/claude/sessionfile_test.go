package claude_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// sessionFixtures are the recorded session files (claude-cli.md §8).
var sessionFixtures = []string{"g_session_file_long_lived.trimmed.jsonl", "g_session_file_tool_use.trimmed.jsonl"}

func TestReadSessionFixtures(t *testing.T) {
	tests := []struct {
		file                   string
		users, assistants      int
		aborted, toolResults   int
		skipped                int
		firstUser, lastContent string
	}{
		// 40 lines: 5 user (one the interrupt marker), 4 assistant (one cut
		// by the interrupt), 31 bookkeeping lines.
		{"g_session_file_long_lived.trimmed.jsonl", 5, 4, 1, 0, 31, `"hello"`, "after interrupt"},
		// 29 lines: the prompt, text + tool_use blocks, the tool result,
		// the answer; 24 bookkeeping lines.
		{"g_session_file_tool_use.trimmed.jsonl", 2, 3, 0, 1, 24, "\"run `touch c_allowed.txt`\"", "Tool finished"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := fixture(t, tt.file)
			var got []claude.SessionEntry
			st, err := claude.ScanSession(path, func(e claude.SessionEntry) error {
				got = append(got, e)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			count := map[string]int{}
			for _, e := range got {
				count[e.Type]++
				count["entrypoint "+e.Entrypoint]++
				if e.IsAbortedMidStream {
					count["aborted"]++
				}
				if e.ToolUseResult != nil {
					count["toolUseResult"]++
				}
				if e.UUID == "" || e.SessionID == "" || e.Timestamp == "" || !json.Valid(e.Message) {
					t.Errorf("incomplete entry %+v", e)
				}
			}
			if count["user"] != tt.users || count["assistant"] != tt.assistants ||
				count["aborted"] != tt.aborted || count["toolUseResult"] != tt.toolResults ||
				count["entrypoint sdk-cli"] != len(got) {
				t.Errorf("counts %v", count)
			}
			if st != (claude.SessionStats{Entries: len(got), Skipped: tt.skipped}) {
				t.Errorf("stats %+v", st)
			}
			if c := content(t, got[0]); c != tt.firstUser {
				t.Errorf("first entry content %s", c)
			}
			if c := content(t, got[len(got)-1]); !strings.Contains(c, tt.lastContent) {
				t.Errorf("last entry content %s", c)
			}
			// ReadSession gives the same entries.
			all, err := claude.ReadSession(path)
			if err != nil || len(all) != len(got) {
				t.Errorf("ReadSession: %d entries, %v", len(all), err)
			}
			// Every entry chains to an earlier line of the file.
			for i, e := range got[1:] {
				if e.ParentUUID == "" {
					t.Errorf("entry %d has no parent", i+1)
				}
			}
		})
	}
}

// content returns the raw message.content of an entry.
func content(t *testing.T, e claude.SessionEntry) string {
	t.Helper()
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(e.Message, &m); err != nil {
		t.Fatal(err)
	}
	return string(m.Content)
}

// A user and an assistant line typed in the terminal UI, shaped like the
// CLI's (recorded from an interactive `claude --resume` against the fake
// API).
const (
	cliUser = `{"parentUuid":"p0","isSidechain":false,"promptId":"x","type":"user","message":{"role":"user","content":"typed in terminal"},` +
		`"uuid":"u1","timestamp":"2026-11-22T15:38:47.035Z","permissionMode":"auto","promptSource":"typed","userType":"external",` +
		`"entrypoint":"cli","cwd":"/w","sessionId":"s1","version":"2.1.330"}`
	cliAssistant = `{"parentUuid":"u1","isSidechain":false,"message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5",` +
		`"content":[{"type":"text","text":"Echo: typed in terminal"}],"stop_reason":"end_turn","stop_sequence":null},"apiBlockIndex":0,` +
		`"requestId":"req_1","type":"assistant","uuid":"a1","timestamp":"2026-11-22T15:38:47.100Z","entrypoint":"cli","sessionId":"s1"}`
)

func TestParseSessionLine(t *testing.T) {
	tests := []struct {
		name, in string
		want     claude.SessionEntry
		err      error // nil, ErrNotConversation or ErrBadSessionLine
	}{
		{"cli user", cliUser, claude.SessionEntry{Type: "user", UUID: "u1", ParentUUID: "p0", SessionID: "s1",
			Timestamp: "2026-11-22T15:38:47.035Z", Entrypoint: "cli"}, nil},
		{"cli assistant", cliAssistant, claude.SessionEntry{Type: "assistant", UUID: "a1", ParentUUID: "u1", SessionID: "s1",
			Timestamp: "2026-11-22T15:38:47.100Z", Entrypoint: "cli"}, nil},
		{"aborted block", `{"type":"assistant","message":{},"isAbortedMidStream":true,"parentUuid":null}`,
			claude.SessionEntry{Type: "assistant", IsAbortedMidStream: true}, nil},
		{"compact summary", `{"type":"user","message":{},"isCompactSummary":true}`,
			claude.SessionEntry{Type: "user", IsCompactSummary: true}, nil},
		{"tool result", `{"type":"user","message":{},"toolUseResult":{"stdout":""}}`, claude.SessionEntry{Type: "user"}, nil},
		{"null tool result", `{"type":"user","message":{},"toolUseResult":null}`, claude.SessionEntry{Type: "user"}, nil},
		{"sidechain", `{"type":"assistant","message":{},"isSidechain":true}`,
			claude.SessionEntry{Type: "assistant", IsSidechain: true}, claude.ErrNotConversation},
		{"meta", `{"type":"user","message":{},"isMeta":true,"uuid":"m"}`,
			claude.SessionEntry{Type: "user", IsMeta: true, UUID: "m"}, claude.ErrNotConversation},
		{"meta without message", `{"type":"user","isMeta":true}`,
			claude.SessionEntry{Type: "user", IsMeta: true}, claude.ErrNotConversation},
		{"system line", `{"type":"system","subtype":"turn_duration","uuid":"s"}`,
			claude.SessionEntry{Type: "system", UUID: "s"}, claude.ErrNotConversation},
		{"unknown type", `{"type":"some-future-line","x":[1,2]}`,
			claude.SessionEntry{Type: "some-future-line"}, claude.ErrNotConversation},
		{"no message", `{"type":"user","uuid":"u"}`, claude.SessionEntry{Type: "user", UUID: "u"}, claude.ErrBadSessionLine},
		{"message not an object", `{"type":"assistant","message":"hi"}`, claude.SessionEntry{Type: "assistant"}, claude.ErrBadSessionLine},
		{"no type", `{"message":{}}`, claude.SessionEntry{}, claude.ErrBadSessionLine},
		{"type not a string", `{"type":1,"message":{}}`, claude.SessionEntry{}, claude.ErrBadSessionLine},
		{"garbage", `garbage {"type":"user"`, claude.SessionEntry{}, claude.ErrBadSessionLine},
		{"truncated", cliUser[:len(cliUser)/2], claude.SessionEntry{}, claude.ErrBadSessionLine},
		{"escaped key", `{"t\u0079pe":"user","message":{},"is\u004deta":true}`,
			claude.SessionEntry{Type: "user", IsMeta: true}, claude.ErrNotConversation},
		{"last duplicate wins", `{"type":"user","type":"assistant","message":{},"isMeta":true,"isMeta":false}`,
			claude.SessionEntry{Type: "assistant"}, nil},
		{"wrong field types", `{"type":"user","message":{},"uuid":7,"isSidechain":"true","timestamp":null}`,
			claude.SessionEntry{Type: "user"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := claude.ParseSessionLine([]byte(tt.in))
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if err == nil && !json.Valid(got.Message) {
				t.Errorf("Message %q", got.Message)
			}
			got.Message, got.ToolUseResult = nil, nil
			if !sameEntry(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
