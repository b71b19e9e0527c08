package fakeapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
)

// taskLine is the part of a stream-json line the task tools show in.
type taskLine struct {
	Type    string `json:"type"`
	Message struct {
		Content []struct {
			Type    string          `json:"type"`
			Name    string          `json:"name"`
			Input   json.RawMessage `json:"input"`
			Content json.RawMessage `json:"content"`
		} `json:"content"`
	} `json:"message"`
}

// The real CLI 2.1.330 runs the "tasks" script: ToolSearch loads the
// deferred TaskCreate and TaskUpdate, three creates answer "Task #1..3
// created successfully", four updates answer "Updated task #N status".
// RECORD_TASKS=1 rewrites testdata/tasks.stream.jsonl (the frontend's
// task list is derived from exactly these lines).
func TestTasksScriptRealCLI(t *testing.T) {
	bin := fakeapi.RequireClaude(t)
	s := fakeapi.New(t)
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
		"--verbose", "--permission-prompt-tool", "stdio", "--allowedTools", "Bash(touch built.txt)")
	// Without this (or a model the CLI lists), CLI 2.1.330 offers no task tools at all.
	cmd.Env = append(s.ClaudeEnv(home), "CLAUDE_CODE_ENABLE_TODO_TOOLS=1")
	cmd.Dir = home
	cmd.Stdin = strings.NewReader(`{"type":"user","message":{"role":"user","content":"tools:tasks"}}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, out)
	}
	var creates, updates, results []string
	for _, raw := range bytes.Split(out, []byte("\n")) {
		var l taskLine
		if json.Unmarshal(raw, &l) != nil {
			continue
		}
		for _, b := range l.Message.Content {
			switch {
			case b.Type == "tool_use" && b.Name == "TaskCreate":
				creates = append(creates, string(b.Input))
			case b.Type == "tool_use" && b.Name == "TaskUpdate":
				updates = append(updates, string(b.Input))
			case b.Type == "tool_result":
				var text string
				if json.Unmarshal(b.Content, &text) == nil && strings.Contains(text, "ask #") {
					results = append(results, text)
				}
			}
		}
	}
	if len(creates) != 3 || len(updates) != 4 {
		t.Fatalf("%d creates, %d updates, want 3 and 4:\n%s", len(creates), len(updates), out)
	}
	joined := strings.Join(results, "\n")
	for _, want := range []string{"Task #1 created successfully: Read the code", "Task #3 created successfully: Write the tests",
		"Updated task #2 status"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no result %q in:\n%s", want, joined)
		}
	}
	if os.Getenv("RECORD_TASKS") == "1" {
		if err := os.WriteFile(filepath.Join("testdata", "tasks.stream.jsonl"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
