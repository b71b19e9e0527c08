package worker_test

import (
	"errors"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestCodexPromptKeptOnceStarted: a Codex conversation that started keeps
// the instructions it started with (Codex replays the ones it recorded),
// so a change of its appended prompt is refused, and nothing changes;
// before its first message the change is taken.
func TestCodexPromptKeptOnceStarted(t *testing.T) {
	chat := &fakeKind{}
	m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory}, nil)
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "codex",
		Limits: worker.Limits{AppendSystemPrompt: "First."}})
	if err != nil {
		t.Fatal(err)
	}
	w := s.Workers[0]
	settings := worker.NewAgentSettings(m)
	prompt := func(p string) worker.SettingsRequest {
		return worker.SettingsRequest{LimitsRequest: worker.LimitsRequest{AppendSystemPrompt: &p}}
	}
	if got, err := settings.Update(t.Context(), s.ID, w.ID, prompt("Second.")); err != nil || got.AppendSystemPrompt != "Second." {
		t.Fatalf("before the first message: %+v %v", got, err)
	}
	env := chat.last(t)
	env.SetClaudeSession("thread-1")
	env.ConversationStarted()
	_, err = settings.Update(t.Context(), s.ID, w.ID, prompt("Third."))
	if !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("after it started: %v", err)
	}
	turns := 4
	if got, err := settings.Update(t.Context(), s.ID, w.ID, worker.SettingsRequest{LimitsRequest: worker.LimitsRequest{MaxTurns: &turns}}); err != nil ||
		got.AppendSystemPrompt != "Second." || got.MaxTurns != 4 {
		t.Fatalf("another limit: %+v %v", got, err)
	}
}
