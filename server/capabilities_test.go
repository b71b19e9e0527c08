package server

import (
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestRealModelsAndCommands asks a new chat worker, whose CLI has not
// started, for its models and commands: the real CLI starts and its own
// initialize answer is served.
func TestRealModelsAndCommands(t *testing.T) {
	e, _ := realEnv(t)

	var s worker.Session
	e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "sdk"}).json(t, &s)
	base := "/api/sessions/" + s.ID + "/workers/" + s.Workers[0].ID

	var models struct {
		Models         []worker.Model
		PermissionMode string
	}
	a := e.do("GET", base+"/models", nil)
	if a.status != 200 {
		t.Fatalf("models: %d %s", a.status, a.body)
	}
	a.json(t, &models)
	if !hasModel(models.Models, "sonnet") || !hasModel(models.Models, "opus") || models.PermissionMode != "default" {
		t.Fatalf("models: %+v", models)
	}
	var cmds struct{ Commands []worker.Command }
	e.do("GET", base+"/commands", nil).json(t, &cmds)
	found := false
	for _, c := range cmds.Commands {
		found = found || (c.Name == "compact" && c.Description != "")
	}
	if !found {
		t.Fatalf("commands lack a described /compact: %d commands", len(cmds.Commands))
	}
	if a := e.do("GET", "/api/sessions/"+s.ID+"/workers/nope/models", nil); a.status != 404 {
		t.Fatalf("unknown worker: %d %s", a.status, a.body)
	}
}

func hasModel(ms []worker.Model, value string) bool {
	for _, m := range ms {
		if m.Value == value && m.DisplayName != "" {
			return true
		}
	}
	return false
}
