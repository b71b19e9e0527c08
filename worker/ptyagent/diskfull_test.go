//go:build unix

package ptyagent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/testkit/ptytest"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// TestOutputOnFullDisk: a CLI prints 3 MB while the database file may not
// grow (RLIMIT_FSIZE, as on a full disk). The tabs get an error frame
// storage_full, live and on a later attach; the worker's error says so
// while the CLI runs, and still once it has exited.
func TestOutputOnFullDisk(t *testing.T) {
	script := "#!/bin/sh\nprintf 'ready\\r\\n'\nread a\nhead -c 3000000 /dev/zero | tr '\\0' L\nprintf 'END\\r\\n'\nread b\nexit 3\n"
	f := newFixture(t, writeScript(t, script))
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	store, err := persist.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	f.store = store
	rt := f.start(t, false)
	tab := attach(t, rt, "")
	tab.Until(t, waitFor, hasText("ready"))
	poll(t, func() bool { return strings.Contains(string(ptytest.Stored(t, store, "w1")), "ready") })

	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	lift := ptytest.LimitFileSize(t, fi.Size())
	if err := rt.Input([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	tab.Until(t, waitFor, func(c *client) bool { return c.Has("END") && c.Frame("error") != nil })
	if e := tab.Frame("error"); e["code"] != "storage_full" {
		t.Fatalf("error frame %v, want storage_full", e)
	}
	info := f.waitInfo(t, func(i worker.Info) bool { return i.Error != nil })
	if info.Status != worker.StatusRunning || !strings.Contains(*info.Error, "could not be saved") {
		t.Fatalf("worker %s, error %q; want running with the storage error", info.Status, *info.Error)
	}
	if later := attach(t, rt, ""); later.Frame("error")["code"] != "storage_full" {
		t.Fatalf("a later tab's frames %v", later.Ctrl)
	}

	lift()
	if err := rt.Input([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	info = f.waitInfo(t, func(i worker.Info) bool { return i.Status == worker.StatusExited })
	if info.Error == nil || !strings.Contains(*info.Error, "could not be saved") {
		t.Fatalf("exited worker's error %v, want the storage error kept", info.Error)
	}
}
