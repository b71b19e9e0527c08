package adopt

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/worker"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type sessions struct {
	cfg  worker.Config
	list []worker.Session
}

func (s sessions) Config() worker.Config      { return s.cfg }
func (s sessions) Sessions() []worker.Session { return s.list }

// A conversation whose file is there may be adopted; one that is not is
// refused as not found; the listing names the session holding one and
// refuses a relative project directory.
func TestCheckAndList(t *testing.T) {
	dir := t.TempDir()
	cfg := worker.Config{ClaudeConfigDir: dir}
	proj := filepath.Join(dir, "projects", "-some-project")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","cwd":"/some/project","sessionId":"c1","uuid":"u1","message":{"role":"user","content":"hello"}}` + "\n"
	if err := os.WriteFile(filepath.Join(proj, "c1.jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	check := Check(cfg)
	if err := check("/some/project", "c1"); err != nil {
		t.Fatalf("existing conversation: %v", err)
	}
	if err := check("/some/project", "c2"); !errors.Is(err, worker.ErrNotFound) {
		t.Fatalf("missing conversation: %v", err)
	}

	c1 := "c1"
	s := New(sessions{cfg: cfg, list: []worker.Session{{ID: "s1", ClaudeSessionID: &c1}}})
	if _, err := s.Conversations("some/project"); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("relative cwd: %v", err)
	}
	cs, err := s.Conversations("/some/project")
	if err != nil || len(cs) != 1 || cs[0].ID != "c1" || cs[0].AgentdeskSessionID == nil || *cs[0].AgentdeskSessionID != "s1" {
		t.Fatalf("conversations: %+v %v", cs, err)
	}
}
