package chat

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// sleeperCLI is a "CLI" that never gets past its start-up: it never answers
// initialize.
func sleeperCLI(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexec sleep 1000\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRecordedBeforeInitialize: the CLI is recorded, with its identity, as
// soon as it runs, not once it answered initialize (which takes the real
// CLI 1 to 3 s): a crash during its start-up must not leave it unknown.
func TestRecordedBeforeInitialize(t *testing.T) {
	h := newHarness(t, harnessOptions{path: sleeperCLI(t)})
	sent := make(chan error, 1)
	go func() { sent <- h.rt.SendUser(context.Background(), "hello") }()
	deadline := time.Now().Add(waitFor)
	for {
		procs, err := h.store.Processes()
		if err != nil {
			t.Fatal(err)
		}
		if p := procs["w1"]; p.Pid > 0 {
			if p.Start == 0 {
				t.Errorf("record %+v has no start time", p)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the CLI waiting for initialize is not recorded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.stop() // aborts the initialize
	if err := <-sent; err == nil {
		t.Error("SendUser succeeded without a CLI")
	}
	if procs, _ := h.store.Processes(); procs["w1"].Pid != 0 {
		t.Errorf("record left after the failed start: %+v", procs["w1"])
	}
}

// TestLateExitKeepsNewerRecord: a dead CLI's reader that finishes after the
// next CLI was recorded does not delete the newer record.
func TestLateExitKeepsNewerRecord(t *testing.T) {
	h := newHarness(t, harnessOptions{path: sleeperCLI(t)})
	start := func() *claude.Process {
		p, err := claude.Start(t.Context(), claude.Options{Path: h.env.Config.ClaudePath, Grace: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close(context.Background()) })
		return p
	}
	old, newer := start(), start()
	h.rt.slot.rec.record(old.Ident())
	h.rt.slot.rec.record(newer.Ident())
	h.rt.slot.rec.forget(old.Ident())
	if procs, _ := h.store.Processes(); procs["w1"].Pid != newer.Ident().Pid {
		t.Fatalf("record %+v, want the newer CLI %d", procs["w1"], newer.Ident().Pid)
	}
	h.rt.slot.rec.forget(newer.Ident())
	if procs, _ := h.store.Processes(); procs["w1"].Pid != 0 {
		t.Fatalf("record %+v left after its CLI is gone", procs["w1"])
	}
}
