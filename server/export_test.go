package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestRealExport exports a conversation of the real CLI, with a tool call,
// as markdown and as raw lines: both hold every turn, the raw lines are the
// stored messages one per line, in order.
func TestRealExport(t *testing.T) {
	e, _ := realEnv(t)

	var s worker.Session
	e.do("POST", "/api/sessions", map[string]any{"cwd": t.TempDir(), "agent": "sdk", "title": "Export me"}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer tab.CloseNow()
	readJSON(t, tab, "history-end")
	for _, msg := range []string{"first question", "please bash:echo exported-output"} {
		if a := e.do("POST", base+"/input", map[string]string{"content": msg}); a.status != 202 {
			t.Fatalf("input: %d %s", a.status, a.body)
		}
		stored(t, tab)
	}

	md := e.do("GET", base+"/export?format=md", nil)
	if md.status != 200 || !strings.HasPrefix(md.header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("md export: %d %q", md.status, md.header.Get("Content-Type"))
	}
	for _, want := range []string{"# Export me", "## User\n\nfirst question", "Echo: first question", "**Tool: Bash**", "exported-output"} {
		if !strings.Contains(string(md.body), want) {
			t.Fatalf("md export lacks %q:\n%s", want, md.body)
		}
	}
	if !strings.Contains(md.header.Get("Content-Disposition"), `filename="Export-me.md"`) {
		t.Fatalf("disposition: %q", md.header.Get("Content-Disposition"))
	}

	var page struct {
		Messages []struct{ Message json.RawMessage }
	}
	e.do("GET", base+"/messages?limit=5000", nil).json(t, &page)
	raw := e.do("GET", base+"/export?format=jsonl", nil)
	lines := strings.Split(strings.TrimSuffix(string(raw.body), "\n"), "\n")
	if raw.status != 200 || len(lines) != len(page.Messages) {
		t.Fatalf("jsonl export: %d, %d lines for %d stored messages", raw.status, len(lines), len(page.Messages))
	}
	for i, l := range lines {
		if !jsonEqual(t, []byte(l), page.Messages[i].Message) {
			t.Fatalf("line %d differs from the stored message:\n%s\n%s", i, l, page.Messages[i].Message)
		}
	}

	if a := e.do("GET", base+"/export?format=pdf", nil); a.status != 400 || a.errCode(t) != "invalid_field" {
		t.Fatalf("bad format: %d %s", a.status, a.body)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
