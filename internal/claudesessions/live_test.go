package claudesessions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMarkLive runs a process named claude with a session id in its
// arguments, and another in a session's directory: the first session is
// live, and a second one only while its file changed lately.
func TestMarkLive(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nread x\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { in.Close(); cmd.Wait() })
	}
	run("--resume", "11111111-aaaa")
	run("-p")

	now := time.Now()
	ss := []Summary{
		{ID: "11111111-aaaa", Cwd: "/elsewhere", LastActivity: now.Add(-time.Hour)},
		{ID: "22222222-bbbb", Cwd: work, LastActivity: now.Add(-time.Second)},
		{ID: "33333333-cccc", Cwd: work, LastActivity: now.Add(-time.Hour)},
		{ID: "44444444-dddd", Cwd: "/elsewhere", LastActivity: now},
	}
	MarkLive(ss, "/proc", now)
	want := []bool{true, true, false, false}
	for i, s := range ss {
		if s.Live != want[i] {
			t.Fatalf("session %s: live %v, want %v", s.ID, s.Live, want[i])
		}
	}
}
