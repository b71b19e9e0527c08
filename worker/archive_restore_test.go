package worker_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// levels is a slog handler that keeps the records at Warn and above.
type levels struct {
	mu   *sync.Mutex
	recs *[]slog.Record
}

func (h levels) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (h levels) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.recs = append(*h.recs, r.Clone())
	return nil
}
func (h levels) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h levels) WithGroup(string) slog.Handler      { return h }

// TestArchivedWorktreeStartsQuietly archives a worktree session whose
// diff worker needs its folder (as git-diff's factory does), then starts
// again on the same store: the worktree is gone by design, so that worker
// not being rebuilt is no error.
func TestArchivedWorktreeStartsQuietly(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "proj")
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "init", "-q", "-b", "main")
	gitRun(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	store, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	needsDir := func(_ context.Context, env worker.Env) (worker.Runtime, error) {
		if _, err := os.Stat(env.Session.Cwd); err != nil {
			return nil, err
		}
		return idleRuntime{}, nil
	}
	o := worker.Options{Store: store, Factories: map[worker.Kind]worker.Factory{worker.KindGitDiff: needsDir}}

	start := func() (*worker.Manager, *[]slog.Record) {
		recs := &[]slog.Record{}
		o.Log = slog.New(levels{&sync.Mutex{}, recs})
		m := worker.NewManager(o)
		if err := m.Load(t.Context()); err != nil {
			t.Fatal(err)
		}
		return m, recs
	}
	closeM := func(m *worker.Manager) {
		if err := m.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	m, _ := start()
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Repo: repo, Branch: "feat", Worktree: true, Agent: "none"})
	if err != nil || len(s.Workers) != 1 {
		t.Fatalf("worktree session: %+v %v", s, err)
	}
	if _, err := m.ArchiveSession(t.Context(), s.ID, false); err != nil {
		t.Fatal(err)
	}
	closeM(m)

	m, recs := start()
	defer closeM(m)
	got, err := m.Session(s.ID)
	if err != nil || !got.Archived || got.Workers[0].Status != worker.StatusStopped {
		t.Fatalf("after restart: %+v %v", got, err)
	}
	for _, r := range *recs {
		t.Errorf("start logged %s %q", r.Level, r.Message)
	}
}

// gitRun runs a setup git command in dir with a fixed identity and no
// user or system config.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	full := append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)
	cmd := exec.Command("git", full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
