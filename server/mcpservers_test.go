package server

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

const mcpSecret = "sk-very-secret-4711"

// TestMCPServersOfASession: servers are added with their secrets, shown
// back masked everywhere (the list, the session, /ws/app), kept across a
// restart, turned off and removed; bad ones are refused and change
// nothing.
func TestMCPServersOfASession(t *testing.T) {
	e := newEnv(t, nil)
	sess := e.createSession(t.TempDir())
	base := "/api/sessions/" + sess.ID + "/mcp-servers"
	a := e.do("POST", base, map[string]any{"name": "github", "type": "stdio", "command": "npx", "args": []string{"-y", "gh-mcp"}, "env": map[string]string{"GITHUB_TOKEN": mcpSecret}})
	if a.status != http.StatusCreated || strings.Contains(string(a.body), mcpSecret) || !strings.Contains(string(a.body), `"GITHUB_TOKEN":"********"`) {
		t.Fatalf("add stdio: %d %s", a.status, a.body)
	}
	a = e.do("POST", base, map[string]any{"name": "docs", "type": "http", "url": "https://mcp.example.test/mcp", "headers": map[string]string{"Authorization": "Bearer " + mcpSecret}})
	if a.status != http.StatusCreated || strings.Contains(string(a.body), mcpSecret) {
		t.Fatalf("add http: %d %s", a.status, a.body)
	}
	bad := []map[string]any{
		{"name": "github", "type": "stdio", "command": "x"},
		{"name": "agentdesk", "type": "stdio", "command": "x"},
		{"name": "a b", "type": "stdio", "command": "x"},
		{"name": "x", "type": "sse", "url": "https://x"},
		{"name": "x", "type": "stdio"},
		{"name": "x", "type": "http", "url": "ftp://x"},
		{"name": "x", "type": "http", "url": "https://x", "headers": map[string]string{"X": "a\nb"}},
		{"name": "x", "type": "stdio", "command": "x", "env": map[string]string{"1BAD": "v"}},
		{"name": "x", "type": "stdio", "command": "x", "url": "https://x"},
	}
	for _, b := range bad {
		if a := e.do("POST", base, b); a.status != http.StatusBadRequest || a.errCode(t) != "invalid_field" {
			t.Errorf("%v: %d %s", b, a.status, a.body)
		}
	}
	if a := e.do("POST", base, map[string]any{"name": "x", "type": "stdio", "command": "x", "Env": map[string]string{}}); a.status != http.StatusBadRequest {
		t.Errorf("a misspelt key: %d %s", a.status, a.body)
	}

	e.restart()
	var list struct{ Servers []worker.MCPServerView }
	a = e.do("GET", base, nil)
	a.json(t, &list)
	if len(list.Servers) != 2 || list.Servers[0].Name != "github" || list.Servers[0].Source != "session" || list.Servers[0].Status != nil ||
		!list.Servers[0].Enabled || list.Servers[1].Headers["Authorization"] != worker.Masked || strings.Contains(string(a.body), mcpSecret) {
		t.Fatalf("list after restart: %s", a.body)
	}
	if a := e.do("GET", "/api/sessions/"+sess.ID, nil); strings.Contains(string(a.body), mcpSecret) || !strings.Contains(string(a.body), `"mcpServers":[`) {
		t.Errorf("the session shows %s", a.body)
	}
	app := e.dial("/ws/app")
	defer app.CloseNow()
	_, sync, err := app.Read(context.Background())
	if err != nil || strings.Contains(string(sync), mcpSecret) || !strings.Contains(string(sync), "GITHUB_TOKEN") {
		t.Errorf("sessions-sync: %s %v", sync, err)
	}

	a = e.do("PATCH", base+"/github", map[string]any{"enabled": false})
	if a.status != http.StatusOK || !strings.Contains(string(a.body), `"enabled":false`) {
		t.Fatalf("turn off: %d %s", a.status, a.body)
	}
	if a := e.do("PATCH", base+"/github", map[string]any{}); a.status != http.StatusBadRequest {
		t.Errorf("toggle without enabled: %d %s", a.status, a.body)
	}
	if a := e.do("PATCH", base+"/nope", map[string]any{"enabled": true}); a.status != http.StatusNotFound {
		t.Errorf("toggle an unknown server: %d %s", a.status, a.body)
	}
	if a := e.do("DELETE", base+"/github", nil); a.status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", a.status, a.body)
	}
	if a := e.do("DELETE", base+"/github", nil); a.status != http.StatusNotFound {
		t.Errorf("remove twice: %d %s", a.status, a.body)
	}
	e.do("GET", base, nil).json(t, &list)
	if len(list.Servers) != 1 || list.Servers[0].Name != "docs" {
		t.Errorf("after remove: %+v", list.Servers)
	}
	e.stop()
	if db, err := os.ReadFile(e.dir + "/agentdesk.db"); err != nil || !strings.Contains(string(db), mcpSecret) {
		t.Errorf("the secret is not kept for the agent (read %v)", err)
	}
}
