package claude_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
)

// gone reports whether pid has exited (a zombie counts: it runs nothing).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCloseKillsGroup: a CLI that ignores EOF (and maybe SIGTERM) is
// signalled, and so is the child it spawned, which holds stderr open.
func TestCloseKillsGroup(t *testing.T) {
	tests := []struct {
		name    string
		env     []string
		wantSig string
	}{
		{"SIGTERM", []string{"FAKECLAUDE_IGNORE_EOF=1"}, "SIGTERM"},
		{"SIGKILL", []string{"FAKECLAUDE_IGNORE_EOF=1", "FAKECLAUDE_IGNORE_TERM=1"}, "SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startFake(t, claude.Options{Grace: 200 * time.Millisecond},
				append(tt.env, "FAKECLAUDE_CHILD=1")...)
			lines := until(t, p, func(l claude.Line) bool { return l.Type == "fakeclaude" })
			var child struct{ Pid int }
			if err := json.Unmarshal(lines[len(lines)-1].Raw, &child); err != nil || child.Pid == 0 {
				t.Fatalf("child line %s: %v", lines[len(lines)-1].Raw, err)
			}
			if gone(child.Pid) {
				t.Fatal("child not running before Close")
			}
			if err := p.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			if code, sig := p.ExitStatus(); code != -1 || sig != tt.wantSig {
				t.Errorf("exit = %d %q, want %s", code, sig, tt.wantSig)
			}
			waitGone(t, p.Pid())
			waitGone(t, child.Pid)
			drain(t, p)
		})
	}
}

// TestCloseGraceful: closing stdin is enough; Close is idempotent.
func TestCloseGraceful(t *testing.T) {
	p := startFake(t, claude.Options{Grace: time.Minute})
	if err := p.SendUser("hi"); err != nil {
		t.Fatal(err)
	}
	until(t, p, isResult)
	for range 2 {
		if err := p.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if code, sig := p.ExitStatus(); code != 0 || sig != "" {
		t.Errorf("exit = %d %q", code, sig)
	}
	if err := p.SendUser("late"); err == nil {
		t.Error("SendUser after Close succeeded")
	}
}

// TestCloseContext: an ended ctx skips the grace.
func TestCloseContext(t *testing.T) {
	p := startFake(t, claude.Options{Grace: time.Hour}, "FAKECLAUDE_IGNORE_EOF=1", "FAKECLAUDE_IGNORE_TERM=1")
	if _, err := p.Initialize(t.Context()); err != nil { // SIGTERM is ignored from here on
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := p.Close(ctx); err == nil {
		t.Error("Close with an ended ctx returned nil")
	}
	if _, sig := p.ExitStatus(); sig != "SIGKILL" {
		t.Errorf("signal = %q", sig)
	}
}

// TestStartContext: the Start ctx bounds the process.
func TestStartContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err := claude.Start(ctx, claude.Options{Path: fakeBin, Env: claude.ChildEnv(os.Environ(), ""),
		Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	if _, err := p.Initialize(t.Context()); err != nil {
		t.Fatal(err)
	}
	cancel()
	waitClosed(t, p.Done(), "Done")
	if code, sig := p.ExitStatus(); code != -1 || sig != "SIGTERM" {
		t.Errorf("exit = %d %q", code, sig)
	}
}

// BenchmarkLines measures stdout lines through the driver (read, parse,
// deliver) from a child that writes them as fast as it can.
func BenchmarkLines(b *testing.B) {
	p, err := claude.Start(context.Background(), claude.Options{Path: fakeBin,
		Env: claude.ChildEnv(os.Environ(), "", "FAKECLAUDE_FLOOD="+strconv.Itoa(b.N))})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close(context.Background())
	if _, err := p.Initialize(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if err := p.SendUser("flood"); err != nil {
		b.Fatal(err)
	}
	n := 0
	for l := range p.Lines() {
		if l.Type == "assistant" {
			n++
		}
		if l.Type == "result" {
			break
		}
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("%d lines, want %d", n, b.N)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lines/s")
}
