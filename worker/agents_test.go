package worker_test

import (
	"errors"
	"log/slog"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
)

// TestCodexChatBesideClaude: a Codex chat is a chat worker with agent
// codex; it has a conversation of its own, so it joins a session whose
// Claude chat runs without a conflict and without becoming the session's
// active agent.
func TestCodexChatBesideClaude(t *testing.T) {
	chat := &fakeKind{}
	m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory}, nil)
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	claude := s.Workers[0]
	chat.last(t).Report.Running()
	codex, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindSDK, Agent: "codex", PermissionMode: "untrusted"})
	if err != nil {
		t.Fatal(err)
	}
	if codex.Agent != "codex" || codex.PermissionMode != "untrusted" || claude.Agent != "" {
		t.Fatalf("codex %+v claude %+v", codex, claude)
	}
	got, _ := m.Session(s.ID)
	if got.ActiveAgentWorkerID == nil || *got.ActiveAgentWorkerID != claude.ID {
		t.Fatalf("active agent %v, want the Claude chat %s", got.ActiveAgentWorkerID, claude.ID)
	}
	// A second Claude chat still conflicts with the running one.
	if _, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{Kind: worker.KindSDK}); !errors.Is(err, worker.ErrConflict) {
		t.Fatalf("second Claude chat: %v", err)
	}
}

// TestCodexChatKeepsItsOwnConversation: the engine of a Codex chat records
// its conversation where it records the session's (Env.SetClaudeSession,
// Env.ConversationStarted); for a Codex chat both go to the worker's
// record, and its next runtime sees them, while the session's Claude
// conversation stays untouched.
func TestCodexChatKeepsItsOwnConversation(t *testing.T) {
	chat := &fakeKind{}
	store := openStore(t)
	kinds := map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory}
	m := worker.NewManager(worker.Options{Store: store, Factories: kinds, Log: slog.New(slog.DiscardHandler)})
	if err := m.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "codex"})
	if err != nil {
		t.Fatal(err)
	}
	w := s.Workers[0]
	env := chat.last(t)
	if w.Agent != "codex" || env.Session.ClaudeSessionID != nil || env.Session.ClaudeSessionStarted {
		t.Fatalf("worker %+v, env session %+v", w, env.Session)
	}
	env.SetClaudeSession("thread-1")
	env.ConversationStarted()
	got, _ := m.Session(s.ID)
	if got.ClaudeSessionID != nil || got.ClaudeSessionStarted || got.ActiveAgentWorkerID != nil {
		t.Fatalf("the session's Claude conversation changed: %+v", got)
	}
	stored, ok := storedWorker(t, store, s.ID, w.ID)
	if !ok || stored.ConversationID != "thread-1" || !stored.ConversationStarted {
		t.Fatalf("stored worker %+v", stored)
	}
	// After a restart the worker's next runtime continues the thread.
	if err := m.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	fakeManager(t, store, kinds, nil)
	env = chat.last(t)
	if id := env.Session.ClaudeSessionID; id == nil || *id != "thread-1" || !env.Session.ClaudeSessionStarted {
		t.Fatalf("restored env sees %v started %v", id, env.Session.ClaudeSessionStarted)
	}
}

// TestAgentOptionsChecked: a chat's permission mode is one of its agent's,
// an agent is a chat's alone, and a bad session request stores nothing.
func TestAgentOptionsChecked(t *testing.T) {
	chat := &fakeKind{}
	m := fakeManager(t, openStore(t), map[worker.Kind]worker.Factory{worker.KindSDK: chat.factory, worker.KindTerminal: chat.factory}, nil)
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []worker.WorkerRequest{
		{Kind: worker.KindSDK, Agent: "codex", PermissionMode: "acceptEdits"},
		{Kind: worker.KindSDK, PermissionMode: "untrusted"},
		{Kind: worker.KindSDK, Agent: "gemini"},
		{Kind: worker.KindTerminal, Agent: "codex"},
	} {
		if _, err := m.CreateWorker(t.Context(), s.ID, r); !errors.Is(err, worker.ErrInvalid) {
			t.Errorf("%+v: %v", r, err)
		}
	}
	before := len(m.Sessions())
	if _, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "codex", PermissionMode: "plan"}); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("codex session in plan mode: %v", err)
	}
	if after := len(m.Sessions()); after != before {
		t.Fatalf("a refused session was stored: %d sessions, had %d", after, before)
	}
}
