package worker

import (
	"bufio"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/childproc"
	"github.com/agentdesk/agentdesk/persist"
)

// TestTreesRecordDescendants: a round records the unmarked setsid child of
// a followed process; once the process is gone, the record keeps the
// child (for the next start after a crash) and the process is no longer
// followed; a family taken meanwhile holds both.
func TestTreesRecordDescendants(t *testing.T) {
	store, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sh := exec.Command("/bin/sh", "-c", "setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!; wait")
	sh.Env = []string{"PATH=" + os.Getenv("PATH")}
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sh.Process.Kill(); _ = sh.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := strconv.Atoi(strings.TrimSpace(line))
	defer func() { _ = syscall.Kill(tool, syscall.SIGKILL) }()

	root := childproc.Identify(sh.Process.Pid, "")
	rec := persist.Process{Pid: root.Pid, Start: root.Start, Boot: root.Boot}
	if err := store.PutProcess("w", rec); err != nil {
		t.Fatal(err)
	}
	tr := newTrees(store, slog.New(slog.DiscardHandler))
	tr.every = time.Hour // the test runs the rounds
	defer tr.close()
	tr.add("w", root)
	if !tr.round() {
		t.Fatal("round: nothing left to follow while the process runs")
	}
	want := []persist.Member{{Pid: tool, Start: childproc.Identify(tool, "").Start}}
	if got := recorded(t, store); !slices.Equal(got, want) {
		t.Fatalf("recorded %v, want %v", got, want)
	}
	fam := tr.family("w", "other")
	defer fam.Close()
	if n := fam.Signal(0); n != 2 {
		t.Errorf("family holds %d live processes, want the shell and its tool", n)
	}

	_ = sh.Process.Kill()
	_ = sh.Wait()
	if tr.round() {
		t.Error("round: still following a process that is gone")
	}
	if got := recorded(t, store); !slices.Equal(got, want) {
		t.Errorf("after the process ended, recorded %v, want %v", got, want)
	}
}

func recorded(t *testing.T, store *persist.Store) []persist.Member {
	t.Helper()
	trees, err := store.Trees()
	if err != nil {
		t.Fatal(err)
	}
	return trees["w"]
}
