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
		{"after a reboot: same start time, another boot id", func(pid int, start uint64) persist.Process {
			return persist.Process{Pid: pid, Start: start, Marker: "w/crashed", Boot: otherBoot()}
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
	return escaperWith(t, m)
}

// escaperWith is escaper with the shell started by wrap (env -i: with a
// clean environment, so no marker reaches the shell or its child).
func escaperWith(t *testing.T, m *worker.Manager, wrap ...string) (sid, wid string, fd int) {
	t.Helper()
	s, err := m.CreateSession(t.Context(), worker.CreateSessionRequest{Cwd: t.TempDir(), Agent: "none"})
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	w, err := m.CreateWorker(t.Context(), s.ID, worker.WorkerRequest{
		Kind:    worker.KindTerminal,
		Command: append(wrap, "/bin/sh", "-c", "setsid sleep 1000 & echo $! > "+pidFile+".tmp; mv "+pidFile+".tmp "+pidFile+"; wait"),
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

// otherBoot is a boot id that is not this boot's.
func otherBoot() string {
	b := childproc.BootID()
	if strings.HasPrefix(b, "0") {
		return "1" + b[1:]
	}
	return "0" + b[1:]
}

// unmarkedShell is the env -i wrapper around a terminal's shell: a
// program that clears its environment, the marker with it.
var unmarkedShell = []string{"env", "-i", "PATH=" + os.Getenv("PATH")}

// TestLoadEndsUnmarkedDescendants: after a crash, the next start ends a
// terminal's shell and its setsid child although neither carries the
// marker (the shell ran under env -i): the shell is identified by pid,
// start time and boot, its child by the parent chain.
func TestLoadEndsUnmarkedDescendants(t *testing.T) {
	store := openStore(t)
	crashed := newManager(t, store, terminals)
	_, _, fd := escaperWith(t, crashed, unmarkedShell...)
	newManager(t, store, nil)
	if !exited(fd) {
		t.Fatal("the setsid child of the crashed run's unmarked shell survived the next start")
	}
}

// TestDeleteEndsUnmarkedDescendants: deleting a worker ends the setsid
// child of its shell found by the parent chain, marker or not.
func TestDeleteEndsUnmarkedDescendants(t *testing.T) {
	m := newManager(t, openStore(t), terminals)
	sid, wid, fd := escaperWith(t, m, unmarkedShell...)
	if err := m.DeleteWorker(t.Context(), sid, wid); err != nil {
		t.Fatal(err)
	}
	if !exited(fd) {
		t.Fatal("the setsid child of a deleted terminal's unmarked shell survived")
	}
}

// TestLoadEndsRecordedOrphans fakes a crash whose recorded process is gone
// and whose tool, unmarked and in a session of its own, lives on: no
// chain leads from the record to it, and the next start ends it from the
// record of the process's tree, unless the record is of another boot.
func TestLoadEndsRecordedOrphans(t *testing.T) {
	for _, tc := range []struct {
		name string
		boot string
		want syscall.Signal // what ended the tool: SIGKILL from Load, or the test's SIGTERM
	}{
		{"this boot", childproc.BootID(), syscall.SIGKILL},
		{"another boot", otherBoot(), syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gone := exec.Command("true") // the recorded process: exited
			if err := gone.Run(); err != nil {
				t.Fatal(err)
			}
			tool := exec.Command("sleep", "1000")
			tool.Env = []string{}
			tool.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := tool.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = tool.Process.Kill(); _ = tool.Wait() })
			store := openStore(t)
			root := persist.Process{Pid: gone.Process.Pid, Start: 1, Marker: "w/crashed", Boot: tc.boot}
			if err := store.PutProcess("w", root); err != nil {
				t.Fatal(err)
			}
			member := persist.Member{Pid: tool.Process.Pid, Start: childproc.Identify(tool.Process.Pid, "").Start}
			if err := store.PutTree("w", root, []persist.Member{member}); err != nil {
				t.Fatal(err)
			}
			newManager(t, store, nil)
			_ = tool.Process.Signal(syscall.SIGTERM)
			_ = tool.Wait()
			ws, _ := tool.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != tc.want {
				t.Errorf("the recorded tool ended with %v, want %v", tool.ProcessState, tc.want)
			}
			if trees, _ := store.Trees(); len(trees) != 0 {
				t.Errorf("trees left after the clean-up: %v", trees)
			}
		})
	}
}
