package server

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/agentdesk/agentdesk/internal/testkit/fakeapi"
	"github.com/agentdesk/agentdesk/worker"
)

// TestRealAdoptConversation starts a conversation with the real CLI
// outside agentdesk, finds it in the listing, adopts it: the chat shows
// the earlier turn, and the next message resumes the conversation (the
// fake API's request carries the old prompt). A second adoption of the
// same conversation, and one of a conversation that does not exist, are
// refused.
func TestRealAdoptConversation(t *testing.T) {
	claudePath := fakeapi.RequireClaude(t)
	api := fakeapi.New(t)
	home := t.TempDir()
	e := &env{t: t, dir: t.TempDir(),
		kinds: map[worker.Kind]worker.Factory{worker.KindSDK: chatKind(claudePath)},
		cfg:   worker.Config{ClaudePath: claudePath, ChildEnv: api.ClaudeEnv(home)}}
	e.start()
	t.Cleanup(e.stop)

	cwd := t.TempDir()
	conv := uuid.NewString()
	cmd := exec.Command(claudePath, "-p", "remember the word pelican", "--session-id", conv)
	cmd.Dir, cmd.Env = cwd, api.ClaudeEnv(home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("claude -p: %v\n%s", err, out)
	}

	var projects struct {
		Projects []struct {
			Cwd      string
			Sessions int
		}
	}
	e.do("GET", "/api/claude/projects", nil).json(t, &projects)
	if len(projects.Projects) != 1 || projects.Projects[0].Sessions != 1 || !strings.HasSuffix(projects.Projects[0].Cwd, cwd[strings.LastIndex(cwd, "/"):]) {
		t.Fatalf("projects: %+v", projects)
	}
	var list struct {
		Sessions []struct {
			ID, Title, FirstPrompt string
			Messages               int
			Live                   bool
		}
	}
	e.do("GET", "/api/claude/sessions?cwd="+projects.Projects[0].Cwd, nil).json(t, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != conv || list.Sessions[0].FirstPrompt != "remember the word pelican" || list.Sessions[0].Live {
		t.Fatalf("sessions: %+v", list)
	}

	var s worker.Session
	a := e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "claudeSessionId": conv})
	if a.status != 201 {
		t.Fatalf("adopt: %d %s", a.status, a.body)
	}
	a.json(t, &s)
	tab := e.dial("/ws/sessions/" + s.ID + "/workers/" + s.Workers[0].ID)
	defer tab.CloseNow()
	var history strings.Builder
	for !strings.Contains(history.String(), `"subtype":"agentdesk_imported"`) {
		b, _ := json.Marshal(readJSON(t, tab, ""))
		history.Write(b)
	}
	if !strings.Contains(history.String(), "remember the word pelican") {
		t.Fatalf("the adopted chat lacks the earlier turn: %s", history.String())
	}
	if a := e.do("POST", "/api/sessions/"+s.ID+"/workers/"+s.Workers[0].ID+"/input", map[string]string{"content": "which word?"}); a.status != 202 {
		t.Fatalf("input: %d %s", a.status, a.body)
	}
	stored(t, tab)
	if last := lastRequest(t, api); !strings.Contains(last, "remember the word pelican") || !strings.Contains(last, "which word?") {
		t.Fatalf("the resumed request lacks the earlier turn: %s", last)
	}

	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "claudeSessionId": conv}); a.status != 409 || a.errCode(t) != "conflict" {
		t.Fatalf("second adoption: %d %s", a.status, a.body)
	}
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "claudeSessionId": uuid.NewString()}); a.status != 404 {
		t.Fatalf("unknown conversation: %d %s", a.status, a.body)
	}
	if a := e.do("POST", "/api/sessions", map[string]string{"cwd": cwd, "claudeSessionId": "../../etc/passwd"}); a.status != 404 {
		t.Fatalf("path in the id: %d %s", a.status, a.body)
	}
	if a := e.do("GET", "/api/claude/sessions?cwd=relative", nil); a.status != 400 || a.errCode(t) != "invalid_field" {
		t.Fatalf("relative cwd: %d %s", a.status, a.body)
	}
}
