package terminal_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/terminal"
)

func input(t *testing.T, tm *terminal.Runtime, s string) {
	t.Helper()
	frame := fmt.Sprintf(`{"type":"input","data":%q}`, s)
	if _, err := tm.HandleClient(t.Context(), []byte(frame)); err != nil {
		t.Fatal(err)
	}
}

func TestShellEcho(t *testing.T) {
	store := openStore(t)
	f := newFixture(t, store, worker.Info{Status: worker.StatusStarting})
	tm := f.start(t, false)
	info := f.snapshot()
	if info.Status != worker.StatusRunning || info.Cols != terminal.DefaultCols || info.Rows != terminal.DefaultRows {
		t.Fatalf("worker %+v, want running at the default size", info)
	}
	procs, err := store.Processes()
	if err != nil || procs["w1"].Pid == 0 {
		t.Fatalf("process groups %v, %v", procs, err)
	}
	c := attach(t, tm, "")
	input(t, tm, "echo \"out:$((40+2)):$TERM:$COLORTERM:$(pwd)\"\n")
	c.Until(t, waitFor, func(c *client) bool { return c.Has("out:42:xterm-256color:truecolor:" + f.cwd) })
	other := attach(t, tm, "0") // a second tab replays the same bytes
	if other.Out.String() != c.Out.String()[:other.Out.Len()] || other.Out.Len() == 0 {
		t.Fatalf("second tab %q, first %q", other.Out.String(), c.Out.String())
	}
}

func TestExitFrame(t *testing.T) {
	tests := []struct {
		script string
		code   any // exitCode in the frame: float64 or nil
		signal any
		errMsg string
	}{
		{"exit 3", float64(3), nil, ""},
		{"exit 0", float64(0), nil, ""},
		{"kill -KILL $$", nil, "SIGKILL", "killed by signal SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			f := newFixture(t, openStore(t), worker.Info{Command: []string{"sh", "-c", "read x; " + tt.script}})
			tm := f.start(t, false)
			before := attach(t, tm, "")
			input(t, tm, "\n")
			before.Until(t, waitFor, func(c *client) bool { return c.Frame("exit") != nil })
			info := f.waitInfo(t, func(i worker.Info) bool { return i.Status == worker.StatusExited })
			after := attach(t, tm, "")
			for _, c := range []*client{before, after} {
				ex := c.Frame("exit")
				if ex["exitCode"] != tt.code || ex["signal"] != tt.signal {
					t.Fatalf("exit frame %v, want code %v signal %v", ex, tt.code, tt.signal)
				}
			}
			if last := after.Ctrl[len(after.Ctrl)-1]; last["type"] != "exit" || after.Ctrl[len(after.Ctrl)-2]["type"] != "history-end" {
				t.Fatalf("replay frames %v: want exit after history-end", after.Ctrl)
			}
			gotCode := any(nil)
			if info.ExitCode != nil {
				gotCode = float64(*info.ExitCode)
			}
			gotErr := ""
			if info.Error != nil {
				gotErr = *info.Error
			}
			if gotCode != tt.code || gotErr != tt.errMsg {
				t.Fatalf("worker exitCode %v error %q, want %v %q", gotCode, gotErr, tt.code, tt.errMsg)
			}
			if procs, _ := f.store.Processes(); procs["w1"].Pid != 0 {
				t.Fatal("process group still recorded after exit")
			}
			if err := tm.Input([]byte("x")); !errors.Is(err, worker.ErrNotRunning) {
				t.Fatalf("input after exit: %v", err)
			}
		})
	}
}

func TestResize(t *testing.T) {
	f := newFixture(t, openStore(t), worker.Info{Cols: 80, Rows: 24})
	tm := f.start(t, false)
	c := attach(t, tm, "")
	input(t, tm, "stty size\n")
	c.Until(t, waitFor, func(c *client) bool { return c.Has("24 80\r\n") })
	if _, err := tm.HandleClient(t.Context(), []byte(`{"type":"resize","cols":100,"rows":40}`)); err != nil {
		t.Fatal(err)
	}
	input(t, tm, "stty size\n")
	c.Until(t, waitFor, func(c *client) bool { return c.Has("40 100\r\n") })
	if info := f.snapshot(); info.Cols != 100 || info.Rows != 40 {
		t.Fatalf("worker size %dx%d, want 100x40", info.Cols, info.Rows)
	}
}

func TestBadClientFrames(t *testing.T) {
	f := newFixture(t, openStore(t), worker.Info{})
	tm := f.start(t, false)
	tests := []struct{ frame, mentions string }{
		{`not json`, "JSON"},
		{`[1]`, "not a JSON object"},
		{`{"type":"input","data":"x"`, "malformed JSON"},
		{`{}`, "no type"},
		{`{"type":"paste","data":"x"}`, "paste"},
		{`{"type":"input"}`, "data"},
		{`{"type":"input","data":5}`, "data"},
		{`{"type":"resize","cols":80}`, "rows"},
		{`{"type":"resize","cols":0,"rows":10}`, "cols"},
		{`{"type":"resize","cols":80,"rows":1001}`, "rows"},
		{`{"type":"resize","cols":80.5,"rows":10}`, "cols"},
		{`{"type":"resize","cols":"80","rows":10}`, "cols"},
	}
	for _, tt := range tests {
		t.Run(tt.frame, func(t *testing.T) {
			_, err := tm.HandleClient(t.Context(), []byte(tt.frame))
			if !errors.Is(err, worker.ErrInvalid) || !regexp.MustCompile(regexp.QuoteMeta(tt.mentions)).MatchString(err.Error()) {
				t.Fatalf("error %v, want ErrInvalid naming %q", err, tt.mentions)
			}
			t.Log(err)
		})
	}
}

func TestRestored(t *testing.T) {
	store := openStore(t)
	f := newFixture(t, store, worker.Info{Command: []string{"sh", "-c", "echo stored-output; exec sleep 1000"}})
	first := f.start(t, false)
	attach(t, first, "").Until(t, waitFor, func(c *client) bool { return c.Has("stored-output") })
	if err := first.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if f.snapshot().Status != worker.StatusRunning {
		t.Fatalf("Stop changed the status to %s", f.snapshot().Status)
	}
	tm := f.start(t, true) // as after a server restart
	info := f.snapshot()
	if info.Status != worker.StatusExited || info.ExitCode != nil || info.Error == nil || *info.Error != terminal.RestartedMsg {
		t.Fatalf("restored worker %+v", info)
	}
	c := attach(t, tm, "")
	if !c.Has("stored-output") || c.Frame("history-end") == nil {
		t.Fatalf("replay %q %v", c.Out.String(), c.Ctrl)
	}
	if ex := c.Frame("exit"); ex == nil || ex["exitCode"] != nil {
		t.Fatalf("exit frame %v, want exitCode null", ex)
	}
	if _, err := tm.HandleClient(t.Context(), []byte(`{"type":"input","data":"ls\n"}`)); !errors.Is(err, worker.ErrNotRunning) {
		t.Fatalf("input to restored terminal: %v", err)
	}
	if err := tm.Resize(90, 30); err != nil {
		t.Fatal(err)
	}
}

func TestRestoredExited(t *testing.T) {
	code := 3
	f := newFixture(t, openStore(t), worker.Info{Status: worker.StatusExited, ExitCode: &code})
	tm := f.start(t, true)
	if info := f.snapshot(); info.Status != worker.StatusExited || info.Error != nil {
		t.Fatalf("restored worker %+v", info)
	}
	if ex := attach(t, tm, "").Frame("exit"); ex["exitCode"] != float64(3) {
		t.Fatalf("exit frame %v", ex)
	}
}

func TestStopKillsJobs(t *testing.T) {
	shells := []string{"/bin/sh", "/bin/bash"}
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			if _, err := os.Stat(sh); err != nil {
				t.Skip(sh, "not installed")
			}
			f := newFixture(t, openStore(t), worker.Info{Command: []string{sh}})
			tm := f.start(t, false)
			c := attach(t, tm, "")
			input(t, tm, "sleep 1000 & echo PID=$!\n")
			re := regexp.MustCompile(`PID=(\d+)`)
			c.Until(t, waitFor, func(c *client) bool { return re.MatchString(c.Out.String()) })
			job, _ := strconv.Atoi(re.FindStringSubmatch(c.Out.String())[1])
			procs, _ := f.store.Processes()
			shell := procs["w1"].Pid
			if err := tm.Stop(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := tm.Stop(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, pid := range []int{shell, job} {
				waitGone(t, pid)
			}
			if procs, _ := f.store.Processes(); procs["w1"].Pid != 0 {
				t.Fatal("process group still recorded after Stop")
			}
			select {
			case <-c.St.Sub.Done():
			default:
				t.Fatal("Stop left the stream open")
			}
		})
	}
}

func TestStartFails(t *testing.T) {
	f := newFixture(t, openStore(t), worker.Info{Command: []string{"/nonexistent/shell"}})
	tm := f.start(t, false)
	info := f.snapshot()
	if info.Status != worker.StatusError || info.Error == nil {
		t.Fatalf("worker %+v, want status error", info)
	}
	if e := attach(t, tm, "").Frame("error"); e == nil || e["code"] != "start_failed" {
		t.Fatalf("no start_failed frame: %v", e)
	}
	if err := tm.Input([]byte("x")); !errors.Is(err, worker.ErrNotRunning) {
		t.Fatalf("input: %v", err)
	}
}

// waitGone polls until pid no longer runs; an unreaped zombie counts as gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	zombie := regexp.MustCompile(`\) Z `)
	poll(t, func() bool {
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return err != nil || zombie.Match(stat)
	})
}

// TestChildEnvironment: the shell sees none of agentdesk's own variables
// (the token above all), even when the base environment has them, and
// gets the worker's marker; the record holds its identity.
func TestChildEnvironment(t *testing.T) {
	store := openStore(t)
	f := newFixture(t, store, worker.Info{Command: []string{"sh", "-c", "env; echo ==END==; read x"}})
	env := f.env(false)
	env.Config.ChildEnv = append(env.Config.ChildEnv, "AGENTDESK_TOKEN=secret", "AGENTDESK_ADDR=x")
	env.Marker = "w1/run1"
	rt, err := terminal.New(t.Context(), env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Stop(t.Context()) })
	c := attach(t, rt.(*terminal.Runtime), "")
	c.Until(t, waitFor, func(c *client) bool { return c.Has("==END==") })
	out := c.Out.String()
	if regexp.MustCompile(`AGENTDESK_(TOKEN|ADDR)`).MatchString(out) || !strings.Contains(out, "AGENTDESK_WORKER=w1/run1\r\n") {
		t.Fatalf("shell environment:\n%s", out)
	}
	procs, _ := store.Processes()
	if p := procs["w1"]; p.Start == 0 || p.Marker != "w1/run1" {
		t.Fatalf("process record %+v has no identity", p)
	}
}
