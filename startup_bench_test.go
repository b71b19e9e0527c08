package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// BenchmarkStartup is the start-up cost with a large stored conversation:
// persist.Open plus worker.Manager.Load (every worker restored; sdk CLIs
// start lazily) and Close, on one session whose sdk worker holds n
// messages. The database is built once per size with NoSync and stays in
// the page cache, so this is a warm start. -short uses 100,000 messages.
func BenchmarkStartup(b *testing.B) {
	sizes := []int{100_000, 1_000_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			path := buildStartupDB(b, n)
			b.ResetTimer()
			for b.Loop() {
				startOnce(b, path)
			}
		})
	}
}

func quietManager(st *persist.Store) *worker.Manager {
	return worker.NewManager(worker.Options{
		Store:     st,
		Config:    worker.Config{ClaudePath: "/nonexistent/claude"},
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Factories: factories(agentPaths{claude: "/nonexistent/claude", codex: "/nonexistent/codex"}),
	})
}

func startOnce(b *testing.B, path string) {
	st, err := persist.Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	mgr := quietManager(st)
	ctx := context.Background()
	if err := mgr.Load(ctx); err != nil {
		b.Fatal(err)
	}
	if err := mgr.Close(ctx); err != nil {
		b.Fatal(err)
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
}

// buildStartupDB creates a session with an sdk worker through the manager,
// then appends n assistant messages of about 450 bytes to its log.
func buildStartupDB(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	path := filepath.Join(dir, "agentdesk.db")
	st, err := persist.Open(path, &persist.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	mgr := quietManager(st)
	ctx := context.Background()
	sess, err := mgr.CreateSession(ctx, worker.CreateSessionRequest{Cwd: dir, Agent: "sdk"})
	if err != nil {
		b.Fatal(err)
	}
	if err := mgr.Close(ctx); err != nil {
		b.Fatal(err)
	}
	wid := sess.Workers[0].ID
	const batch = 5000
	for from := 1; from <= n; from += batch {
		ms := make([]persist.Message, 0, batch)
		for seq := from; seq < from+batch && seq <= n; seq++ {
			id := fmt.Sprintf("00000000-0000-4000-8000-%012x", seq)
			ms = append(ms, persist.Message{Seq: uint64(seq), UUID: id, Data: fmt.Appendf(nil,
				`{"type":"sdk-message","seq":%d,"message":{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"stored line %d of a long conversation, about as long as a short answer"}]},"session_id":"s","uuid":%q}}`, seq, seq, id)})
		}
		if err := <-st.AppendMessages(wid, ms); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// BenchmarkStartupSessions is the start-up cost with many idle sessions:
// persist.Open plus Manager.Load and Close of n sessions with an sdk
// worker each (no CLI runs), on a warm database file. -short uses 1,000.
func BenchmarkStartupSessions(b *testing.B) {
	sizes := []int{1_000, 10_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			path := buildSessionsDB(b, n)
			b.ResetTimer()
			for b.Loop() {
				startOnce(b, path)
			}
		})
	}
}

// buildSessionsDB creates n sessions with an sdk worker each, through the
// manager, as POST /api/sessions does.
func buildSessionsDB(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	path := filepath.Join(dir, "agentdesk.db")
	st, err := persist.Open(path, &persist.Options{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	mgr := quietManager(st)
	ctx := context.Background()
	for range n {
		if _, err := mgr.CreateSession(ctx, worker.CreateSessionRequest{Cwd: dir, Agent: "sdk"}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := mgr.Close(ctx); err != nil {
		tb.Fatal(err)
	}
	return path
}
