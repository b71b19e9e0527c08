package ptyagent_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/ptyagent"
)

func TestExit(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	rt := f.start(t, false)
	c := attach(t, rt, "")
	c.Until(t, waitFor, hasText("❯"))
	send(t, rt, "exit 0")
	c.Until(t, waitFor, func(c *client) bool { return c.Frame("exit") != nil })
	info := f.waitInfo(t, func(i worker.Info) bool { return i.Status == worker.StatusExited })
	if info.ExitCode == nil || *info.ExitCode != 0 || info.Error != nil || *info.Activity != worker.ActivityIdle {
		t.Fatalf("worker %+v", info)
	}
	after := attach(t, rt, "")
	if n := len(after.Ctrl); after.Ctrl[n-1]["type"] != "exit" || after.Ctrl[n-1]["exitCode"] != 0.0 {
		t.Fatalf("replay frames %v", after.Ctrl)
	}
	if procs, _ := f.store.Processes(); procs["w1"].Pid != 0 {
		t.Fatal("process group still recorded after exit")
	}
	for _, err := range []error{rt.Input([]byte("x")), rt.SendUser(t.Context(), "x")} {
		if !errors.Is(err, worker.ErrNotRunning) {
			t.Fatalf("input after exit: %v", err)
		}
	}
}

// A CLI that fails right away leaves its message on screen; the worker's
// error repeats the line that says what went wrong.
func TestEarlyExit(t *testing.T) {
	script := "#!/bin/sh\necho 'Welcome'\necho 'Error: Session ID 123 is already in use.'\necho 'bye'\nexit 1\n"
	f := newFixture(t, writeScript(t, script))
	rt := f.start(t, false)
	info := f.waitInfo(t, func(i worker.Info) bool { return i.Status == worker.StatusExited })
	want := "claude exited with code 1 right after starting: Error: Session ID 123 is already in use."
	if info.Error == nil || *info.Error != want || info.ExitCode == nil || *info.ExitCode != 1 {
		t.Fatalf("worker %+v, error %v", info, info.Error)
	}
	if c := attach(t, rt, ""); !c.Has("already in use") {
		t.Fatalf("output %q", c.Out.String())
	}
}

func TestClaudeMissing(t *testing.T) {
	notExec := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(t.TempDir(), "nonexistent"), notExec, "no-such-claude-on-path"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := newFixture(t, path)
			rt := f.start(t, false)
			info := f.snapshot()
			if info.Status != worker.StatusError || info.Error == nil || !strings.Contains(*info.Error, "npm install -g @anthropic-ai/claude-code") {
				t.Fatalf("worker %+v", info)
			}
			c := attach(t, rt, "")
			e := c.Frame("error")
			if e == nil || e["code"] != "claude_not_found" || e["message"] != *info.Error {
				t.Fatalf("frames %v", c.Ctrl)
			}
			if !c.Has("\x1b[31m" + *info.Error + "\x1b[0m\r\n") {
				t.Fatalf("output %q", c.Out.String())
			}
			if err := rt.SendUser(t.Context(), "hi"); !errors.Is(err, worker.ErrClaudeAbsent) {
				t.Fatalf("send: %v", err)
			}
			if ok, err := rt.Cancel(t.Context()); ok || err != nil {
				t.Fatalf("cancel: %v %v", ok, err)
			}
			if _, err := os.Stat(filepath.Join(f.home, ".claude.json")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("config seeded for a CLI that is not there: %v", err)
			}
		})
	}
}

func TestRestored(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	first := f.start(t, false)
	attach(t, first, "").Until(t, waitFor, hasText("❯"))
	if err := first.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := f.snapshot().Status; st != worker.StatusRunning {
		t.Fatalf("Stop changed the status to %s", st)
	}
	rt := f.start(t, true) // as after a server restart
	info := f.snapshot()
	if info.Status != worker.StatusExited || info.ExitCode != nil || info.Error == nil || *info.Error != ptyagent.RestartedMsg {
		t.Fatalf("restored worker %+v", info)
	}
	c := attach(t, rt, "")
	if !c.Has("ARGS:") || c.Frame("history-end") == nil || c.Frame("activity")["state"] != "idle" {
		t.Fatalf("replay %q %v", c.Out.String(), c.Ctrl)
	}
	if ex := c.Frame("exit"); ex == nil || ex["exitCode"] != nil {
		t.Fatalf("exit frame %v", ex)
	}
	if err := rt.SendUser(t.Context(), "hi"); !errors.Is(err, worker.ErrNotRunning) {
		t.Fatalf("send to restored: %v", err)
	}
}

func TestStop(t *testing.T) {
	f := newFixture(t, writeScript(t, fakeClaude))
	rt := f.start(t, false)
	c := attach(t, rt, "")
	send(t, rt, "work")
	c.Until(t, waitFor, func(c *client) bool { return lastActivity(c) == "active" })
	procs, _ := f.store.Processes()
	pid := procs["w1"].Pid
	for range 2 {
		if err := rt.Stop(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) && !zombie(pid) {
		t.Fatalf("process %d still runs", pid)
	}
	if procs, _ := f.store.Processes(); procs["w1"].Pid != 0 {
		t.Fatal("process group still recorded after Stop")
	}
	select {
	case <-c.St.Sub.Done():
	default:
		t.Fatal("Stop left the stream open")
	}
	c.Drain(t)
	if info := f.snapshot(); info.Status != worker.StatusRunning || *info.Activity != worker.ActivityActive {
		t.Fatalf("after Stop: %+v (status and activity are the manager's then)", info)
	}
	if got := rt.Activity(); got != worker.ActivityIdle {
		t.Errorf("Activity() %s after Stop", got)
	}
	if n := len(c.Ctrl); n < 2 || c.Ctrl[n-2]["state"] != "idle" || c.Ctrl[n-1]["type"] != "exit" {
		t.Errorf("last frames %v, want activity idle then exit", c.Ctrl)
	}
}

func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err != nil || regexp.MustCompile(`\) Z `).Match(stat)
}
