package childproc_test

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
)

// TestFamilyCPUTicks: the CPU time of an unmarked process's descendants
// counts (a program in a sandbox has no marker), except the pid left out.
func TestFamilyCPUTicks(t *testing.T) {
	cmd, line := child(t, "", "(while :; do :; done) & echo $!; wait")
	busy, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	// The loop is the shell's child: killing the shell (child's clean-up)
	// would leave it spinning.
	t.Cleanup(func() { _ = syscall.Kill(busy, syscall.SIGKILL) })
	root := childproc.Identify(cmd.Process.Pid, "")
	none := childproc.Exact("no-such-marker")
	deadline := time.Now().Add(waitFor)
	for childproc.FamilyCPUTicks(root, none, root.Pid) < 50 { // half a second of the loop's CPU
		if time.Now().After(deadline) {
			t.Fatal("the busy descendant's CPU time never showed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := childproc.FamilyCPUTicks(root, none, busy); n >= 50 {
		t.Errorf("with the busy pid left out the family used %d ticks", n)
	}
	if n := childproc.FamilyCPUTicks(childproc.Ident{}, none, 0); n != 0 {
		t.Errorf("no root and no marked process: %d ticks", n)
	}
}
