package childproc_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// unmarked is child's env -i case: a shell running script with no marker
// in its environment, as a wrapper that cleared it leaves the CLI.
func unmarked(t *testing.T, script string) (int, int) {
	t.Helper()
	cmd, line := child(t, "", script)
	pid, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", line, err)
	}
	return cmd.Process.Pid, pid
}

func pids(ids []childproc.Ident) []int {
	var out []int
	for _, id := range ids {
		out = append(out, id.Pid)
	}
	slices.Sort(out)
	return out
}

// TestPinFindsUnmarkedEscapedDescendants: a Family taken from a process
// that carries no marker holds it and the setsid grandchild it started
// (another session, another group); SIGKILL through it ends both and
// nothing else.
func TestPinFindsUnmarkedEscapedDescendants(t *testing.T) {
	shellPid, grand := unmarked(t, "setsid sleep 1000 & echo $!; wait")
	fd := pidfd(t, grand)
	plain, _ := child(t, "", "echo ready; exec sleep 1000")
	f := childproc.Pin(childproc.Identify(shellPid, "w1/run"))
	defer f.Close()
	if got, want := pids(f.Idents()), []int{shellPid, grand}; !slices.Equal(got, want) {
		t.Fatalf("family %v, want %v", got, want)
	}
	if n := f.Signal(syscall.SIGKILL); n != 2 {
		t.Errorf("Signal reached %d processes, want 2", n)
	}
	if !exited(fd) {
		t.Fatal("the setsid grandchild still runs")
	}
	_ = plain.Process.Signal(syscall.SIGTERM)
	if sig := signalOf(t, plain); sig != syscall.SIGTERM {
		t.Errorf("unrelated process ended by %v: the family reached it", sig)
	}
}

// TestDescendantsOutliveTheirParent: a recorded descendant is found again
// by its pid and start time once its parent is gone (re-parented, no
// chain leads to it), and a Family pinned from the record ends it; an
// entry whose start time is not the process's is left alone.
func TestDescendantsOutliveTheirParent(t *testing.T) {
	shell, line := child(t, "", `trap "" TERM; setsid sleep 1000 & echo $!; wait`)
	grand, _ := strconv.Atoi(line)
	fd := pidfd(t, grand)
	root := childproc.Identify(shell.Process.Pid, "")
	rec := childproc.Descendants(root, nil)
	if snap := childproc.Snap().Descendants(root, nil); !slices.Equal(pids(snap), pids(rec)) {
		t.Errorf("a read of all /proc found %v, the children files %v", pids(snap), pids(rec))
	}
	if got := pids(rec); !slices.Contains(got, grand) {
		t.Fatalf("descendants %v, want the setsid sleep %d among them", got, grand)
	}
	_ = shell.Process.Kill()
	_ = shell.Wait()
	again := childproc.Descendants(root, rec)
	if got := pids(again); !slices.Equal(got, []int{grand}) {
		t.Fatalf("descendants after the parent died: %v, want [%d]", got, grand)
	}
	stale := []childproc.Ident{{Pid: grand, Start: rec[0].Start + 1, Boot: rec[0].Boot}}
	if got := childproc.Descendants(root, stale); len(got) != 0 {
		t.Errorf("a record with another start time found %v", got)
	}
	f := childproc.Pin(append(again, root)...)
	defer f.Close()
	if n := f.Signal(syscall.SIGKILL); n != 1 {
		t.Errorf("Signal reached %d processes, want 1", n)
	}
	if !exited(fd) {
		t.Fatal("the orphaned sleep still runs")
	}
}

// TestEndFamily: End sends SIGTERM to a family, and SIGKILL after the
// grace to the member that ignored it, which started after the family was
// pinned.
func TestEndFamily(t *testing.T) {
	dir := t.TempDir()
	shell, _ := child(t, "", `echo ready; while [ ! -e `+dir+`/go ]; do sleep 0.01; done; (trap "" TERM; setsid sleep 1000 & echo $! > `+dir+`/pid; wait) & wait`)
	f := childproc.Pin(childproc.Identify(shell.Process.Pid, ""))
	defer f.Close()
	if err := os.WriteFile(dir+"/go", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	grand := waitPidFile(t, dir+"/pid")
	fd := pidfd(t, grand)
	if n := childproc.End(t.Context(), nil, 200*time.Millisecond, f); n < 1 {
		t.Errorf("End found %d processes, want the shell and its children", n)
	}
	if sig := signalOf(t, shell); sig != syscall.SIGTERM {
		t.Errorf("shell ended by %v, want SIGTERM", sig)
	}
	if !exited(fd) {
		t.Fatal("the setsid child that ignored SIGTERM still runs")
	}
}

// waitPidFile waits for a shell to write a pid into file.
func waitPidFile(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file %q: %v", b, err)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no pid written")
	return 0
}

// BenchmarkSnap is the cost of one round of the manager's tree recorder:
// one read of /proc (reported with the number of processes read).
func BenchmarkSnap(b *testing.B) {
	for b.Loop() {
		childproc.Snap()
	}
}

// BenchmarkDescendants is the same round through the children files: the
// cost of a family of three (a shell, a setsid child, its sleep).
func BenchmarkDescendants(b *testing.B) {
	shell, _ := child(b, "", "setsid sh -c 'sleep 1000 & echo $!; wait' & wait")
	root := childproc.Identify(shell.Process.Pid, "")
	if n := len(childproc.Descendants(root, nil)); n != 2 {
		b.Fatalf("%d descendants, want 2", n)
	}
	for b.Loop() {
		childproc.Descendants(root, nil)
	}
}
