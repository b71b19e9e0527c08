package terminal_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/testkit/ptytest"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/terminal"
	"github.com/agentdesk/agentdesk/worker/workertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const waitFor = 2 * time.Minute

func openStore(t *testing.T) *persist.Store {
	t.Helper()
	s, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// fixture is a terminal worker with a fake manager: reports apply to info.
type fixture struct {
	store *persist.Store
	cwd   string
	mu    sync.Mutex
	info  worker.Info
}

func newFixture(t *testing.T, store *persist.Store, info worker.Info) *fixture {
	if info.ID == "" {
		info.ID = "w1"
	}
	info.Kind = worker.KindTerminal
	return &fixture{store: store, cwd: t.TempDir(), info: info}
}

func (f *fixture) env(restored bool) worker.Env {
	return worker.Env{
		Info:    f.snapshot(),
		Session: worker.Session{ID: "s1", Cwd: f.cwd},
		Store:   f.store,
		Config: worker.Config{ChildEnv: []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + f.cwd, "SHELL=/bin/sh", "TERM=dumb", "PS1=$ ",
		}},
		Log:      slog.New(slog.DiscardHandler),
		Restored: restored,
		Report:   workertest.Reporter{Mu: &f.mu, Info: &f.info},
	}
}

func (f *fixture) snapshot() worker.Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.info
}

// start builds the runtime; the test stops it at cleanup.
func (f *fixture) start(t *testing.T, restored bool) *terminal.Runtime {
	t.Helper()
	rt, err := terminal.New(t.Context(), f.env(restored))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Stop(t.Context()) })
	return rt.(*terminal.Runtime)
}

// waitInfo polls the worker until cond holds.
func (f *fixture) waitInfo(t *testing.T, cond func(worker.Info) bool) worker.Info {
	t.Helper()
	var info worker.Info
	poll(t, func() bool { info = f.snapshot(); return cond(info) })
	return info
}

// poll checks cond until it holds, failing after waitFor.
func poll(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
}

// client is one attached stream's view: output bytes and control frames.
type client = ptytest.Client

func attach(t *testing.T, tm *terminal.Runtime, cursor string) *client {
	t.Helper()
	return ptytest.Attach(t, tm.Attach, cursor)
}
