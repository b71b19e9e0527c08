package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestFrames(t *testing.T) {
	one, sig := 1, "SIGKILL"
	for _, tc := range []struct {
		name  string
		frame []byte
		want  map[string]any
	}{
		{"error", Error(CodeStorageFull, `disk "full"`), map[string]any{"type": "error", "code": "storage_full", "message": `disk "full"`}},
		{"exit code", Exit(&one, nil), map[string]any{"type": "exit", "exitCode": 1.0, "signal": nil}},
		{"exit status signal", ExitStatus(0, sig), map[string]any{"type": "exit", "exitCode": nil, "signal": "SIGKILL"}},
		{"exit status code", ExitStatus(3, ""), map[string]any{"type": "exit", "exitCode": 3.0, "signal": nil}},
		{"activity", Activity("idle"), map[string]any{"type": "activity", "state": "idle"}},
		{"history-end uuid", HistoryEndUUID("u1"), map[string]any{"type": "history-end", "last": "u1"}},
		{"history-end none", HistoryEndUUID(""), map[string]any{"type": "history-end", "last": nil}},
		{"history-end offset", HistoryEndOffset(42), map[string]any{"type": "history-end", "offset": 42.0}},
		{"truncated", Truncated(7), map[string]any{"type": "truncated", "offset": 7.0}},
		{"reset", Reset(), map[string]any{"type": "reset"}},
		{"resolved", PermissionResolved("r1", "deny"), map[string]any{"type": "permission-resolved", "requestId": "r1", "behavior": "deny"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got map[string]any
			if err := json.Unmarshal(tc.frame, &got); err != nil {
				t.Fatalf("%s: %v", tc.frame, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %s, want %v", tc.frame, tc.want)
			}
		})
	}
}

func TestUpstream(t *testing.T) {
	if !CodeClaudeExited.Upstream() || CodeInvalidField.Upstream() {
		t.Fatal("Upstream: claude_exited is upstream, invalid_field is not")
	}
}
