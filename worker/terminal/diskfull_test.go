//go:build unix

package terminal_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/ptytest"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// TestOutputOnFullDisk runs a terminal on a real database whose file may
// not grow (RLIMIT_FSIZE: writes past it fail with EFBIG, as on a full
// disk) while the shell prints 3 MB. The tabs get an error frame
// storage_full, live and on a later attach; the worker's error says so
// while it keeps running; a tab can still attach and replay; and once the
// limit is lifted, output is stored again.
func TestOutputOnFullDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	store, err := persist.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	script := `read a; printf before; read b; head -c 3000000 /dev/zero | tr '\0' L; printf END; read c; printf after; read d`
	f := newFixture(t, store, worker.Info{Command: []string{"sh", "-c", script}})
	tm := f.start(t, false)
	tab := attach(t, tm, "")
	input(t, tm, "\n")
	poll(t, func() bool { return storedHas(t, store, "before") })

	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	lift := ptytest.LimitFileSize(t, fi.Size())
	input(t, tm, "\n")
	tab.Until(t, waitFor, func(c *client) bool { return c.Has("END") && c.Frame("error") != nil })
	if e := tab.Frame("error"); e["code"] != "storage_full" || !strings.Contains(e["message"].(string), "disk is full") {
		t.Fatalf("error frame %v, want storage_full", e)
	}
	info := f.waitInfo(t, func(i worker.Info) bool { return i.Error != nil })
	if info.Status != worker.StatusRunning || !strings.Contains(*info.Error, "could not be saved") {
		t.Fatalf("worker %s, error %q; want running with the storage error", info.Status, *info.Error)
	}
	during := attach(t, tm, "") // the barrier's commit fails: still attaches
	if !during.Has("before") || during.Frame("error")["code"] != "storage_full" {
		t.Fatalf("attach on a full disk: %q, frames %v", during.Out.String(), during.Ctrl)
	}

	lift()
	input(t, tm, "\n")
	poll(t, func() bool { return storedHas(t, store, "after") })
	later := attach(t, tm, "")
	if !later.Has("before") || !later.Has("after") || later.Frame("truncated") == nil {
		t.Fatalf("replay after the disk has room: %q, frames %v", tail(later.Out.String()), later.Ctrl)
	}
}

func storedHas(t *testing.T, s *persist.Store, text string) bool {
	return strings.Contains(string(ptytest.Stored(t, s, "w1")), text)
}

func tail(s string) string {
	if len(s) > 300 {
		return "..." + s[len(s)-300:]
	}
	return s
}
