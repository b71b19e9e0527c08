package claude_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/agent/claude"
	"github.com/agentdesk/agentdesk/internal/testkit/fakeclaude/fakeclaudetest"
)

// waitLimit bounds every wait in these tests: a hang fails, it never blocks.
const waitLimit = 2 * time.Minute

// startFake runs fakeclaude with extra environment; cleanup closes it.
func startFake(t *testing.T, o claude.Options, env ...string) *claude.Process {
	t.Helper()
	o.Path = fakeBin
	o.Env = claude.ChildEnv(os.Environ(), "", env...)
	if o.Grace == 0 {
		o.Grace = 300 * time.Millisecond
	}
	p, err := claude.Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// fixture is the path of a recorded fixture file.
func fixture(t testing.TB, name string) string {
	t.Helper()
	dir, err := fakeclaudetest.FixtureDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

// until reads lines until stop returns true and returns them all.
func until(t *testing.T, p *claude.Process, stop func(claude.Line) bool) []claude.Line {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	var got []claude.Line
	for {
		select {
		case l, ok := <-p.Lines():
			if !ok {
				t.Fatalf("Lines closed after %d lines; stderr:\n%s", len(got), p.Stderr())
			}
			if l.Err != nil {
				t.Errorf("line error: %v (%.200s)", l.Err, l.Raw)
			}
			got = append(got, l)
			if stop(l) {
				return got
			}
		case <-timer.C:
			t.Fatalf("no matching line after %d lines; stderr:\n%s", len(got), p.Stderr())
		}
	}
}

func isResult(l claude.Line) bool { return l.Type == "result" }

// field decodes one top-level string field of a line.
func field(t *testing.T, l claude.Line, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(l.Raw, &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m[name].(string)
	return s
}

// waitClosed waits for ch to close.
func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitLimit):
		t.Fatalf("%s: not closed after %v", what, waitLimit)
	}
}

// drain reads Lines until it is closed.
func drain(t *testing.T, p *claude.Process) []claude.Line {
	t.Helper()
	var got []claude.Line
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-p.Lines():
			if !ok {
				return got
			}
			got = append(got, l)
		case <-timer.C:
			t.Fatal("Lines not closed")
		}
	}
}

func types(lines []claude.Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Type+"/"+l.Subtype)
	}
	return out
}
