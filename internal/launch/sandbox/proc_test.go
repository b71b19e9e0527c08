package sandbox_test

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
	"github.com/agentdesk/agentdesk/internal/launch/sandbox"
)

// TestBoxEndsWithBwrap: the handle tracks bwrap (with the marker, which
// the box has not); Program finds the program; when bwrap's group is
// killed, every process of the box ends, one that left the program's
// session included.
func TestBoxEndsWithBwrap(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	b := newBox(t, f.options(tl, sandbox.Workspace))
	marker := childproc.Marker("w1", childproc.NewRun())
	p, err := b.Start(t.Context(), launch.Spec{
		Argv: []string{"sh", "-c", "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo ready; exec sleep 1001"},
		Dir:  f.work, StdoutPipe: true, Marker: marker,
		Env: []string{"PATH=" + os.Getenv("PATH")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(p.Stdout()).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if !childproc.Verify(p.Ident()) || p.Ident().Marker != "" {
		t.Errorf("identity %+v does not name bwrap, without a marker", p.Ident())
	}
	if comm := procFile(p.Pid(), "comm"); comm != "bwrap" {
		t.Errorf("the tracked process is %q, want bwrap", comm)
	}
	prog := p.Program()
	// The program: the script, or the sleep it became. While the script
	// execs the sleep its command line reads empty for a moment: read it
	// again until the exec is through.
	cmd := procFile(prog, "cmdline")
	for deadline := time.Now().Add(10 * time.Second); cmd == "" && time.Now().Before(deadline); cmd = procFile(prog, "cmdline") {
		runtime.Gosched()
	}
	if !strings.Contains(cmd, "echo ready") && cmd != "sleep\x001001\x00" {
		t.Errorf("Program %d runs %q, want the program", prog, cmd)
	}
	family := childproc.Descendants(p.Ident(), nil)
	var fds []unix.PollFd
	for _, m := range family {
		fd, err := unix.PidfdOpen(m.Pid, 0)
		if err != nil {
			continue // gone already
		}
		defer unix.Close(fd)
		fds = append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
	}
	if len(fds) < 3 { // the box's init, the program, the setsid sleep
		t.Fatalf("the box holds %d processes: %+v", len(fds), family)
	}
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	for _, fd := range fds { // each pidfd becomes readable when its process ends
		if _, err := unix.Poll([]unix.PollFd{fd}, -1); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPTYKeepsTerminal: a PTY program in the box has its terminal as its
// controlling terminal (a shell's job control needs it).
func TestPTYKeepsTerminal(t *testing.T) {
	tl := tools(t)
	f := newFixture(t)
	b := newBox(t, f.options(tl, sandbox.Workspace))
	p, err := b.Start(t.Context(), launch.Spec{
		Argv: []string{"sh", "-c", "if exec 3</dev/tty; then echo ctty=yes; else echo ctty=no; fi"},
		Dir:  f.work, PTY: true, Cols: 80, Rows: 24, Env: []string{"PATH=" + os.Getenv("PATH")},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.PTY().Close()
	line, err := bufio.NewReader(p.PTY()).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	if strings.TrimSpace(line) != "ctty=yes" {
		t.Errorf("box said %q", line)
	}
}

// TestProbe: without bwrap nothing can run, and the error names the
// Debian package; without socat only the host-network level can.
func TestProbe(t *testing.T) {
	tl := tools(t)
	none := sandbox.Probe(t.Context(), t.TempDir())
	for _, l := range []sandbox.Level{sandbox.Workspace, sandbox.WorkspaceNet} {
		if err := none.Check(l); err == nil || !strings.Contains(err.Error(), "bubblewrap") {
			t.Errorf("%s without bwrap: %v", l, err)
		}
	}
	if none.Check(sandbox.Off) != nil {
		t.Error("off is always available")
	}
	dir := t.TempDir()
	if err := os.Symlink(tl.Bwrap, dir+"/bwrap"); err != nil {
		t.Fatal(err)
	}
	only := sandbox.Probe(t.Context(), dir)
	if err := only.Check(sandbox.Workspace); err == nil || !strings.Contains(err.Error(), "socat") {
		t.Errorf("workspace without socat: %v", err)
	}
	if err := only.Check(sandbox.WorkspaceNet); err != nil {
		t.Errorf("workspace+net without socat: %v", err)
	}
}

func procFile(pid int, name string) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + name)
	return strings.TrimSpace(string(b))
}
