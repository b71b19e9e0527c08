package childproc_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// waitFor guards waits on events; it is never reached when things work.
const waitFor = 2 * time.Minute

// child runs script under sh with marker in its environment ("" for none)
// and returns once it printed its first line (the script's "ready" point),
// with that line.
func child(t testing.TB, marker, script string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = childproc.Env(os.Environ(), marker)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("%q printed nothing: %v", script, err)
	}
	return cmd, strings.TrimSpace(line)
}

// signalOf waits for cmd and returns the signal that ended it (0: none).
func signalOf(t *testing.T, cmd *exec.Cmd) syscall.Signal {
	t.Helper()
	_ = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

// pidfd pins pid so that its exit can be waited for even when it is not
// our child.
func pidfd(t *testing.T, pid int) int {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	t.Cleanup(func() {
		_ = unix.PidfdSendSignal(fd, syscall.SIGKILL, nil, 0)
		_ = unix.Close(fd)
	})
	return fd
}

// exited waits for the process behind fd to exit, up to waitFor.
func exited(fd int) bool {
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 1000)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return false
		}
		if n > 0 {
			return true
		}
	}
	return false
}

func TestVerify(t *testing.T) {
	m := childproc.Marker("w1", childproc.NewRun())
	marked, _ := child(t, m, "echo ready; exec sleep 1000")
	plain, _ := child(t, "", "echo ready; exec sleep 1000")
	id := childproc.Identify(marked.Process.Pid, m)
	if id.Start == 0 || id.Boot == "" {
		t.Fatalf("identity %+v: want a start time and a boot id", id)
	}
	otherBoot := "0" + id.Boot[1:]
	if otherBoot == id.Boot {
		otherBoot = "1" + id.Boot[1:]
	}
	for _, tc := range []struct {
		name string
		id   childproc.Ident
		want bool
	}{
		{"the process recorded", id, true},
		{"other start time (pid reused)", childproc.Ident{Pid: id.Pid, Start: id.Start + 1, Marker: m}, false},
		{"other marker", childproc.Ident{Pid: id.Pid, Start: id.Start, Marker: "w2/x"}, false},
		{"no start time (old record)", childproc.Ident{Pid: id.Pid, Marker: m}, false},
		{"no marker (old record)", childproc.Ident{Pid: id.Pid, Start: id.Start}, false},
		// The marker is extra evidence, not a requirement: a wrapper that
		// runs the CLI with a clean environment (exec env -i …) leaves
		// pid, start time and boot id to name it (issue 22, item 4).
		{"unmarked process, right start time", childproc.Identify(plain.Process.Pid, m), true},
		{"other boot", childproc.Ident{Pid: id.Pid, Start: id.Start, Marker: m, Boot: otherBoot}, false},
		{"another worker's marker", childproc.Ident{Pid: id.Pid, Start: id.Start, Marker: "w2/x", Boot: id.Boot}, false},
		{"no marker recorded", childproc.Ident{Pid: id.Pid, Start: id.Start, Boot: id.Boot}, true},
		{"this process", childproc.Identify(os.Getpid(), m), false},
	} {
		if got := childproc.Verify(tc.id); got != tc.want {
			t.Errorf("%s: Verify(%+v) = %v, want %v", tc.name, tc.id, got, tc.want)
		}
	}
	_ = marked.Process.Kill()
	_ = marked.Wait()
	if childproc.Verify(id) {
		t.Error("a reaped process still verifies")
	}
}

// TestKillFindsEscapedDescendants: Kill ends a marked process and the
// setsid grandchild it started (another session, another group), and
// leaves an unmarked process and another worker's alone.
func TestKillFindsEscapedDescendants(t *testing.T) {
	run := childproc.NewRun()
	m := childproc.Marker("w1", run)
	shell, line := child(t, m, "setsid sleep 1000 & echo $!; wait")
	pid, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", line, err)
	}
	fd := pidfd(t, pid)
	plain, _ := child(t, "", "echo ready; exec sleep 1000")
	other, _ := child(t, childproc.Marker("w2", run), "echo ready; exec sleep 1000")

	if n := childproc.Kill(childproc.Exact(m)); n != 2 {
		t.Errorf("Kill signalled %d processes, want 2", n)
	}
	if sig := signalOf(t, shell); sig != syscall.SIGKILL {
		t.Errorf("marked shell ended by %v, want SIGKILL", sig)
	}
	if !exited(fd) {
		t.Fatal("setsid grandchild still runs")
	}
	for name, c := range map[string]*exec.Cmd{"unmarked": plain, "other worker's": other} {
		_ = c.Process.Signal(syscall.SIGTERM)
		if sig := signalOf(t, c); sig != syscall.SIGTERM {
			t.Errorf("%s process ended by %v: Kill reached it", name, sig)
		}
	}
}

// TestEndAsksFirst: End sends SIGTERM, and SIGKILL after the grace only to
// what ignored it.
func TestEndAsksFirst(t *testing.T) {
	m := childproc.Marker("w1", childproc.NewRun())
	polite, _ := child(t, m, "echo ready; exec sleep 1000")
	stubborn, _ := child(t, m, `trap "" TERM; echo ready; exec sleep 1000`)
	if n := childproc.End(t.Context(), childproc.Runs(strings.SplitN(m, "/", 2)[1]), 200*time.Millisecond); n != 2 {
		t.Errorf("End found %d processes, want 2", n)
	}
	if sig := signalOf(t, polite); sig != syscall.SIGTERM {
		t.Errorf("polite process ended by %v, want SIGTERM", sig)
	}
	if sig := signalOf(t, stubborn); sig != syscall.SIGKILL {
		t.Errorf("process ignoring SIGTERM ended by %v, want SIGKILL", sig)
	}
}
