package server

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

func TestSentence(t *testing.T) {
	tests := []struct{ in, want string }{
		{`session "abc": not found`, `Session "abc" was not found.`},
		{`content is empty: invalid`, `Content is empty.`},
		{`invalid: frame is not a JSON object`, `Frame is not a JSON object.`},
		{`worktree /w has uncommitted changes; commit them or delete with force=true: conflict`, `Worktree /w has uncommitted changes; commit them or delete with force=true.`},
		{`terminal workers are not available in this build: not supported by this worker kind`, `Terminal workers are not available in this build.`},
		{`path "a" has no change: not found`, `Path "a" has no change.`},
		{`Already a sentence.`, `Already a sentence.`},
		{`invalid`, `Invalid.`},
	}
	for _, tt := range tests {
		if got := sentence(tt.in); got != tt.want {
			t.Errorf("sentence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestErrorMessagesAreSentences checks real answers: no sentinel suffix,
// no Go type names or json package prefixes, a capital and a full stop,
// and the code unchanged.
func TestErrorMessagesAreSentences(t *testing.T) {
	e := newEnv(t, nil)
	s := e.createSession(t.TempDir())
	dir := t.TempDir()
	tests := []struct {
		method, path string
		body         any
		status       int
		code, want   string
	}{
		{"GET", "/api/sessions/nope", nil, 404, "not_found", `Session "nope" was not found.`},
		{"POST", "/api/sessions", map[string]string{"cwd": "rel"}, 400, "invalid_field", `The cwd field must be an absolute path, got "rel".`},
		{"POST", "/api/sessions", map[string]any{"cwd": dir, "title": 5}, 400, "invalid_field", "The title field must be a string, not a JSON number."},
		{"POST", "/api/sessions", `{"cwd": "/x", "bogus": 1}`, 400, "invalid_field", `Unknown field "bogus" (check its spelling).`},
		{"POST", "/api/sessions", `{"cwd": `, 400, "invalid_json", "The request body is not valid JSON."},
		{"POST", "/api/sessions", `{"cwd" "/x"}`, 400, "invalid_json", "The request body is not valid JSON (error at byte 8)."},
		{"POST", "/api/sessions/" + s.ID + "/workers", map[string]any{"kind": "terminal"}, 400, "invalid_field", "Terminal workers are not available in this build (field kind)."},
		{"DELETE", "/api/sessions/" + s.ID + "/workers/w1", nil, 404, "not_found", `Worker "w1" was not found.`},
		{"POST", "/api/sessions", map[string]string{"cwd": "/no/such/dir"}, 400, "invalid_field", `The cwd "/no/such/dir" does not exist or cannot be read.`},
		{"POST", "/api/sessions", map[string]string{"cwd": dir, "agent": "robot"}, 400, "invalid_field", `The agent field must be "sdk", "pty-agent", "codex" or "none", got "robot".`},
	}
	for _, tt := range tests {
		a := e.do(tt.method, tt.path, tt.body)
		var v struct{ Error, Code string }
		a.json(t, &v)
		if a.status != tt.status || v.Code != tt.code || v.Error != tt.want {
			t.Errorf("%s %s: %d %s %q; want %d %s %q", tt.method, tt.path, a.status, v.Code, v.Error, tt.status, tt.code, tt.want)
		}
		for _, leak := range []string{": invalid", ": conflict", ": not found", "json:", "int64", "worker."} {
			if strings.Contains(v.Error, leak) {
				t.Errorf("%s %s: message %q contains %q", tt.method, tt.path, v.Error, leak)
			}
		}
	}
}

func TestFromDomainHidesExecErrors(t *testing.T) {
	err := fmt.Errorf("start claude: %w: %w", worker.ErrClaudeAbsent, &os.PathError{Op: "exec", Path: "claude", Err: os.ErrNotExist})
	ae := fromDomain(err)
	if ae.Status != http.StatusServiceUnavailable || ae.Code != "claude_not_found" {
		t.Fatalf("got %d %s", ae.Status, ae.Code)
	}
	if strings.Contains(ae.Message, "exec") || !strings.Contains(ae.Message, "--claude") || ae.Internal == nil {
		t.Fatalf("message %q (internal %v): want a fix, no exec detail, the detail kept for the log", ae.Message, ae.Internal)
	}
}
