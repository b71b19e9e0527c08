package launch_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/internal/launch"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestPipes: the child gets the scrubbed environment with its marker, its
// directory and its own process group; Stdout is its output, the identity
// is its own, and Wait reports a failing status.
func TestPipes(t *testing.T) {
	dir := t.TempDir()
	marker := childproc.Marker("w1", childproc.NewRun())
	var stderr strings.Builder
	p, err := launch.Local{}.Start(t.Context(), launch.Spec{
		Argv:   []string{"sh", "-c", `echo "$AGENTDESK_WORKER|${AGENTDESK_TOKEN-none}|$KEEP|$(pwd)|$(ps -o pgid= -p $$)"; echo oops >&2; exit 3`},
		Env:    []string{"PATH=" + os.Getenv("PATH"), "AGENTDESK_TOKEN=secret", "KEEP=yes"},
		Marker: marker, Dir: dir, StdoutPipe: true, Stderr: &stderr,
	})
	if err != nil {
		t.Fatal(err)
	}
	id := p.Ident()
	if id.Pid != p.Pid() || id.Marker != marker || id.Start == 0 {
		t.Errorf("Ident %+v: want pid %d, marker %q and a start time", id, p.Pid(), marker)
	}
	if p.Program() != p.Pid() {
		t.Errorf("Program %d: a child started as it is runs the program itself (%d)", p.Program(), p.Pid())
	}
	out, err := io.ReadAll(p.Stdout())
	if err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := p.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("Wait = %v, want exit status 3", err)
	}
	if p.State() == nil || p.State().ExitCode() != 3 {
		t.Errorf("State = %v, want exit status 3", p.State())
	}
	want := marker + "|none|yes|" + dir + "|" + strconv.Itoa(p.Pid())
	if got := strings.Join(strings.Fields(string(out)), ""); got != strings.ReplaceAll(want, " ", "") {
		t.Errorf("child saw %q, want %q", out, want)
	}
	if stderr.String() != "oops\n" {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestNilEnvIsServersScrubbed: no Env means the server's environment,
// still without agentdesk's own variables.
func TestNilEnvIsServersScrubbed(t *testing.T) {
	t.Setenv("AGENTDESK_TOKEN", "secret")
	t.Setenv("LAUNCH_TEST", "inherited")
	p, err := launch.Local{}.Start(t.Context(), launch.Spec{
		Argv: []string{"sh", "-c", `echo "${AGENTDESK_TOKEN-none} $LAUNCH_TEST"`}, StdoutPipe: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(p.Stdout())
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "none inherited" {
		t.Errorf("child saw %q, want %q", got, "none inherited")
	}
}

// TestCancelSignalsGroup: when ctx ends, the Cancel signal reaches the
// child and what it started in its group.
func TestCancelSignalsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p, err := launch.Local{}.Start(ctx, launch.Spec{
		Argv:       []string{"sh", "-c", "sleep 1000 & echo $!; wait"},
		StdoutPipe: true, Cancel: syscall.SIGTERM,
	})
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout()).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(strings.TrimSpace(line))
	fd, err := unix.PidfdOpen(child, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", child, err)
	}
	defer unix.Close(fd)
	cancel()
	_ = p.Wait()
	ws, _ := p.State().Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want SIGTERM", p.State())
	}
	// The grandchild got SIGTERM too: its pidfd becomes readable.
	if _, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, -1); err != nil {
		t.Fatal(err)
	}
}

// TestPTY: a PTY child leads its own session on a terminal of the asked
// size, and its output comes out of the master.
func TestPTY(t *testing.T) {
	p, err := launch.Local{}.Start(context.Background(), launch.Spec{
		Argv: []string{"sh", "-c", `echo "$(stty size) $(ps -o sid= -p $$)"`},
		PTY:  true, Cols: 91, Rows: 17,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.PTY().Close()
	line, err := bufio.NewReader(p.PTY()).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	want := "17 91 " + strconv.Itoa(p.Pid())
	if got := strings.Join(strings.Fields(line), " "); got != want {
		t.Errorf("child saw %q, want %q", got, want)
	}
}

func TestInvalid(t *testing.T) {
	for name, s := range map[string]launch.Spec{
		"no argv":           {},
		"empty program":     {Argv: []string{""}},
		"pty with stdin":    {Argv: []string{"true"}, PTY: true, Stdin: strings.NewReader("")},
		"pty with a pipe":   {Argv: []string{"true"}, PTY: true, StdoutPipe: true},
		"stdout and a pipe": {Argv: []string{"true"}, Stdout: io.Discard, StdoutPipe: true},
	} {
		if _, err := (launch.Local{}).Start(t.Context(), s); !errors.Is(err, launch.ErrInvalid) {
			t.Errorf("%s: Start = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := (launch.Local{}).Start(t.Context(), launch.Spec{Argv: []string{"/nonexistent/x"}}); err == nil {
		t.Error("Start of a missing program succeeded")
	}
}

// TestSignal: Signal reaches the child's group.
func TestSignal(t *testing.T) {
	p, err := launch.Local{}.Start(t.Context(), launch.Spec{
		Argv: []string{"sh", "-c", "echo ready; sleep 1000"}, StdoutPipe: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(p.Stdout()).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	if ws, _ := p.State().Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want SIGTERM", p.State())
	}
}
