package worker_test

import (
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestSwitchCarriesSettings (issue 22, items 1 and 2): the terminal view
// a switch starts gets the person's choices, and where they chose nothing
// what the chat's CLI reported it ran with; the Worker objects say which
// is which (model/permissionMode the choices, current what runs).
func TestSwitchCarriesSettings(t *testing.T) {
	tests := []struct {
		name        string
		model, mode string         // chosen for the chat
		reported    worker.Current // what its CLI reported
		want        worker.Current // what the terminal view starts with
	}{
		{"nothing chosen", "", "", worker.Current{Model: "claude-opus-5-5", PermissionMode: "default"},
			worker.Current{Model: "claude-opus-5-5", PermissionMode: "default"}},
		{"chosen", "sonnet", "plan", worker.Current{Model: "claude-sonnet-4-6", PermissionMode: "plan"},
			worker.Current{Model: "sonnet", PermissionMode: "plan"}},
		{"mode chosen, not yet reported", "", "acceptEdits", worker.Current{},
			worker.Current{PermissionMode: "acceptEdits"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chat, term := &fakeKind{}, &fakeKind{}
			m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory, worker.KindPTYAgent: term.factory}, nil)
			s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none"})
			if err != nil {
				t.Fatal(err)
			}
			w, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindSDK, Model: tt.model, PermissionMode: tt.mode, AllowedTools: []string{"Read"}})
			if err != nil {
				t.Fatal(err)
			}
			chat.last(t).Report.Running()
			chat.last(t).Report.Current(tt.reported)
			got, _ := m.Worker(s.ID, w.ID)
			if tt.reported != (worker.Current{}) && (got.Current == nil || *got.Current != tt.reported) {
				t.Fatalf("chat's current %+v, want %+v", got.Current, tt.reported)
			}
			if got.Model != tt.model || got.PermissionMode != tt.mode {
				t.Fatalf("the report changed the choices: %+v", got)
			}
			next, err := m.Switch(t.Context(), s.ID, worker.SwitchRequest{To: worker.KindPTYAgent})
			if err != nil {
				t.Fatal(err)
			}
			env := term.last(t)
			for _, i := range []worker.Info{next, env.Info} {
				if i.Current == nil || *i.Current != tt.want {
					t.Errorf("terminal view starts with %+v, want %+v", i.Current, tt.want)
				}
				if i.Model != tt.model || i.PermissionMode != tt.mode || len(i.AllowedTools) != 1 {
					t.Errorf("terminal view's choices %q %q %v, want the chat's", i.Model, i.PermissionMode, i.AllowedTools)
				}
			}
		})
	}
}
