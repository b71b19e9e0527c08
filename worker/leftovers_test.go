package worker_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitFor guards waits on events; it is never reached when things work.
const waitFor = 2 * time.Minute

func openStore(t testing.TB) *persist.Store {
	t.Helper()
	s, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// newManager is a manager with the terminal kind on store, loaded (which
// runs the crash clean-up) and closed at cleanup.
func newManager(t *testing.T, store *persist.Store, kinds map[worker.Kind]worker.Factory) *worker.Manager {
	t.Helper()
	return loaded(t, worker.Options{Store: store, Factories: kinds, Config: worker.Config{ChildEnv: []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SHELL=/bin/sh",
	}}})
}

var terminals = map[worker.Kind]worker.Factory{worker.KindTerminal: terminal.New}

// TestLoadSparesUnrelatedProcess: a recorded pid that now names a process
// agentdesk did not start (after a reboot or a pid reuse) is not signalled
// by the crash clean-up, whatever the record holds. The process is a
// setsid sleep, so it leads its own group as a recorded child would.
func TestLoadSparesUnrelatedProcess(t *testing.T) {
	for _, tc := range []struct {
		name   string
		record func(pid int, start uint64) persist.Process
	}{
		{"old record, pid only", func(pid int, _ uint64) persist.Process {
			return persist.Process{Pid: pid}
		}},
		{"pid reused: other start time", func(pid int, start uint64) persist.Process {
			return persist.Process{Pid: pid, Start: start + 1, Marker: "w/crashed"}
		}},
		{"after a reboot: same start time, no marker", func(pid int, start uint64) persist.Process {
			return persist.Process{Pid: pid, Start: start, Marker: "w/crashed"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sleep := exec.Command("sleep", "1000")
			sleep.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := sleep.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = sleep.Process.Kill(); _ = sleep.Wait() })
			pid := sleep.Process.Pid
			store := openStore(t)
			// A faked crash: the records a killed server would have left.
			rec := tc.record(pid, childproc.Identify(pid, "").Start)
			if err := store.PutProcess("w", rec); err != nil {
				t.Fatal(err)
			}
			if err := store.PutRun("crashed"); err != nil {
				t.Fatal(err)
			}
			newManager(t, store, nil)
			// Had Load signalled it, SIGKILL would be what ended it.
			_ = sleep.Process.Signal(syscall.SIGTERM)
			_ = sleep.Wait()
			ws, _ := sleep.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
				t.Fatalf("unrelated process ended with %v: the crash clean-up signalled it", sleep.ProcessState)
			}
			if procs, _ := store.Processes(); len(procs) != 0 {
				t.Errorf("records left after the clean-up: %v", procs)
			}
		})
	}
}

// escaper creates a terminal whose shell starts a setsid sleep (its own
// session and group, as Claude Code's Bash tool does) and returns the
// sleep's pid pinned by a pidfd.
func escaper(t *testing.T, m *worker.Manager) (sid, wid string, fd int) {
	t.Helper()
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none"})
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	w, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{
		Kind:    worker.KindTerminal,
		Command: []string{"/bin/sh", "-c", "setsid sleep 1000 & echo $! > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; wait"},
	})
	if err != nil {
		t.Fatal(err)
	}
	pid := readPID(t, pidFile)
	fd, err = unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	t.Cleanup(func() {
		_ = unix.PidfdSendSignal(fd, syscall.SIGKILL, nil, 0)
		_ = unix.Close(fd)
	})
	return s.ID, w.ID, fd
}

// readPID waits for the shell to write the file (renamed into place whole).
func readPID(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file %q: %v", b, err)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the shell never wrote the setsid child's pid")
	return 0
}

// exited waits for the process behind fd to exit, up to waitFor.
func exited(fd int) bool {
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 1000)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return false
		}
		if n > 0 {
			return true
		}
	}
	return false
}

// TestLoadEndsSetsidDescendants fakes a crash: the first manager is never
// stopped, and a second one on the same store runs the start-up clean-up.
// It ends the shell's setsid child too, which is in no recorded group or
// session.
func TestLoadEndsSetsidDescendants(t *testing.T) {
	store := openStore(t)
	crashed := newManager(t, store, terminals)
	_, _, fd := escaper(t, crashed)
	newManager(t, store, nil)
	if !exited(fd) {
		t.Fatal("the setsid child of the crashed run's terminal survived the next start")
	}
}

// TestDeleteEndsSetsidDescendants: deleting the worker ends its shell's
// setsid child as well as the shell.
func TestDeleteEndsSetsidDescendants(t *testing.T) {
	m := newManager(t, openStore(t), terminals)
	sid, wid, fd := escaper(t, m)
	if err := m.DeleteWorker(t.Context(), sid, wid); err != nil {
		t.Fatal(err)
	}
	if !exited(fd) {
		t.Fatal("the setsid child of a deleted terminal survived")
	}
}
