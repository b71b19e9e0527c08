package worker_test

import (
	"os"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestSwitchCarriesLimits: the limits of the agent worker a switch retires
// go to the next one both ways, even when an added directory has gone
// since it was set (it was checked then; the switch must not fail).
func TestSwitchCarriesLimits(t *testing.T) {
	chat, term := &fakeKind{}, &fakeKind{}
	m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory, worker.KindPTYAgent: term.factory}, nil)
	extra := t.TempDir()
	limits := worker.Limits{AppendSystemPrompt: "Be brief.", MaxTurns: 4, MaxBudgetUSD: 2, DisallowedTools: []string{"Bash"}, AddDirs: []string{extra}}
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	chat.last(t).Report.Running()
	if err := os.Remove(extra); err != nil {
		t.Fatal(err)
	}
	for _, to := range []worker.Kind{worker.KindPTYAgent, worker.KindSDK} {
		next, err := m.Switch(t.Context(), s.ID, worker.SwitchRequest{To: to})
		if err != nil {
			t.Fatal(err)
		}
		if next.AppendSystemPrompt != "Be brief." || next.MaxTurns != 4 || next.MaxBudgetUSD != 2 || next.DisallowedTools[0] != "Bash" || next.AddDirs[0] != extra {
			t.Errorf("%s worker after the switch: %+v", to, next.Limits)
		}
		if to == worker.KindPTYAgent {
			term.last(t).Report.Running()
		}
	}
}
