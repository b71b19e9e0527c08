package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
	"github.com/agentdesk/agentdesk/worker"
)

// TestSandboxUnavailable: without bwrap, GET /api/capabilities says which
// levels cannot run and what to install, and a sandboxed session is
// refused with 409 sandbox_unavailable naming the package; nothing is
// created, nothing starts unsandboxed in its place.
func TestSandboxUnavailable(t *testing.T) {
	e := &env{t: t, dir: t.TempDir(), kinds: map[worker.Kind]worker.Factory{}}
	e.sandbox = &worker.SandboxOptions{Dir: filepath.Join(e.dir, "sandbox"), Tools: sandbox.Probe(t.Context(), t.TempDir())}
	e.start()
	t.Cleanup(e.stop)

	var caps struct {
		Sandbox struct{ Levels []worker.SandboxLevel }
	}
	e.do("GET", "/api/capabilities", nil).json(t, &caps)
	if len(caps.Sandbox.Levels) != 3 || !caps.Sandbox.Levels[0].Available || caps.Sandbox.Levels[0].Level != "off" {
		t.Fatalf("levels %+v", caps.Sandbox.Levels)
	}
	for _, l := range caps.Sandbox.Levels[1:] {
		if l.Available || !strings.Contains(l.Reason, "bubblewrap") {
			t.Errorf("level %+v: want unavailable, naming bubblewrap", l)
		}
	}
	a := e.do("POST", "/api/sessions", map[string]string{"cwd": t.TempDir(), "agent": "none", "sandbox": "workspace"})
	if a.status != 409 || a.errCode(t) != "sandbox_unavailable" || !strings.Contains(string(a.body), "apt-get install bubblewrap") {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	var list []worker.Session
	e.do("GET", "/api/sessions", nil).json(t, &list)
	if len(list) != 0 {
		t.Errorf("a refused session was created: %+v", list)
	}
}
