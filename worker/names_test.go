package worker_test

import (
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestDefaultNames: a worker given no name is called what a person reads
// on its tab. Switching the conversation back and forth keeps one "Chat"
// and one "Terminal" (the earlier views are its history), and a second
// live shell is "Shell 2".
func TestDefaultNames(t *testing.T) {
	kinds := map[worker.Kind]*fakeKind{worker.KindSDK: {}, worker.KindPTYAgent: {}, worker.KindTerminal: {}, worker.KindGitDiff: {}, worker.KindFiles: {}}
	factories := map[worker.Kind]worker.Factory{}
	for k, f := range kinds {
		factories[k] = f.factory
	}
	m := fakeManager(t, openStore(t), factories, nil)
	s, chat := createWorker(t, m, worker.KindSDK)
	names := []string{chat.Name}
	driving := worker.KindSDK
	for _, to := range []worker.Kind{worker.KindPTYAgent, worker.KindSDK, worker.KindPTYAgent, worker.KindSDK} {
		kinds[driving].last(t).Report.Running() // as a started CLI reports
		w, err := m.Switch(t.Context(), s.ID, worker.SwitchRequest{To: to})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, w.Name)
		driving = to
	}
	for _, k := range []worker.Kind{worker.KindTerminal, worker.KindTerminal, worker.KindGitDiff, worker.KindFiles} {
		w, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: k})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, w.Name)
	}
	named, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindTerminal, Name: "setup"})
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, named.Name)
	want := []string{"Chat", "Terminal", "Chat", "Terminal", "Chat", "Shell", "Shell 2", "Diff", "Files", "setup"}
	if len(names) != len(want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("names %q, want %q", names, want)
		}
	}
}
