package pty_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/persist"
)

// reports records a Term's reports, one line each.
type reports struct {
	mu    sync.Mutex
	lines []string
}

func (r *reports) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

func (r *reports) Failed(err error)          { r.add("failed %s", err) }
func (r *reports) Exited(c int, s, n string) { r.add("exited %d %q %q", c, s, n) }
func (r *reports) Size(cols, rows int)       { r.add("size %dx%d", cols, rows) }
func (r *reports) Problem(msg string)        { r.add("problem %s", msg) }

func (r *reports) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.lines)
}

// wait polls until a report with prefix arrives and returns it.
func (r *reports) wait(tb testing.TB, prefix string) string {
	tb.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		for _, l := range r.all() {
			if len(l) >= len(prefix) && l[:len(prefix)] == prefix {
				return l
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("no %q report; got %q", prefix, r.all())
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
}

func newTerm(tb testing.TB, s *persist.Store, o pty.TermOptions) *pty.Term {
	tb.Helper()
	o.Name, o.ID, o.Store = "test", "w1", s
	t, err := pty.NewTerm(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = t.Stop(tb.Context()) })
	return t
}

// startWatched starts cmd and the kind's goroutine, which reports its end.
func startWatched(tb testing.TB, t *pty.Term, cmd ...string) *pty.Proc {
	tb.Helper()
	err := t.Start(pty.Options{Command: cmd, Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		tb.Fatal(err)
	}
	p := t.Current()
	t.Go(func() { <-p.Done(); t.Exit(p) })
	return p
}

func types(frames []map[string]any) []any {
	var out []any
	for _, f := range frames {
		out = append(out, f["type"])
	}
	return out
}

// TestTermExit checks that a process's own exit reaches the manager with
// the kind's note, and that each tab gets the exit frame exactly once.
func TestTermExit(t *testing.T) {
	rep := &reports{}
	var stopping []bool
	term := newTerm(t, openStore(t, nil), pty.TermOptions{
		Report: rep, Cols: 90, Rows: 30,
		OnExit:   func(s bool) { stopping = append(stopping, s) },
		ExitNote: func(code int) string { return fmt.Sprintf("note %d", code) },
	})
	before := attach(t, term.Log(), "")
	startWatched(t, term, "/bin/sh", "-c", "stty size; exit 3")
	got := rep.wait(t, "exited")
	if got != `exited 3 "" "note 3"` || len(stopping) != 1 || stopping[0] {
		t.Fatalf("report %q, OnExit %v", got, stopping)
	}
	rb := replay(t, before)
	live(t, before, rb, func(r *received) bool { return len(r.afterHist) == 1 })
	ra := replay(t, attach(t, term.Log(), ""))
	if ra.afterHist[0]["exitCode"] != 3.0 || len(ra.afterHist) != 1 || !ra.has("30 90") {
		t.Fatalf("after the exit: tail %v, output %q", ra.afterHist, ra.out.String())
	}
	if before.Sub.Len() != 0 {
		t.Fatal("exit frame doubled on the live side")
	}
}

// TestTermStopped checks that a process Stop ended is not reported as
// exited: the manager owns the worker's status then.
func TestTermStopped(t *testing.T) {
	rep := &reports{}
	var stopping []bool
	term := newTerm(t, openStore(t, nil), pty.TermOptions{
		Report: rep, OnExit: func(s bool) { stopping = append(stopping, s) },
	})
	startWatched(t, term, "/bin/sh", "-c", "read x")
	if err := term.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := rep.all(); len(got) != 0 || len(stopping) != 1 || !stopping[0] {
		t.Fatalf("reports %q, OnExit %v", got, stopping)
	}
	if err := term.Start(pty.Options{Command: []string{"true"}}); !errors.Is(err, wire.ErrNotRunning) {
		t.Fatalf("Start after Stop: %v", err)
	}
}

// TestTermRestore checks a worker whose process died with the server:
// exited, no exit code, the kind's message.
func TestTermRestore(t *testing.T) {
	rep := &reports{}
	term := newTerm(t, openStore(t, nil), pty.TermOptions{Report: rep})
	one := 1
	term.Restore(true, &one, "gone")
	r := replay(t, attach(t, term.Log(), ""))
	if got := rep.all(); !slices.Equal(got, []string{`exited -1 "unknown" "gone"`}) {
		t.Fatalf("reports %q", got)
	}
	if len(r.afterHist) != 1 || r.afterHist[0]["type"] != "exit" || r.afterHist[0]["exitCode"] != nil {
		t.Fatalf("tail %v", r.afterHist)
	}
	if err := term.Surface().Input([]byte("x")); !errors.Is(err, wire.ErrNotRunning) {
		t.Fatalf("input to a restored worker: %v", err)
	}
}

// TestTermFail checks a failed start: status error, the error frame after
// the activity in every replay, and input refused with the kind's reason.
func TestTermFail(t *testing.T) {
	rep := &reports{}
	var sizes []string
	term := newTerm(t, openStore(t, nil), pty.TermOptions{
		Report: rep, OnResize: func(c, r int) { sizes = append(sizes, fmt.Sprint(c, r)) },
	})
	why := errors.New("no binary")
	term.PublishActivity("idle")
	term.Fail(wire.CodeStartFailed, "could not start", why)
	s := term.Surface()
	if err := s.Input([]byte("x")); !errors.Is(err, why) {
		t.Fatalf("input after a failed start: %v", err)
	}
	if _, err := s.HandleClient(t.Context(), []byte(`{"type":"resize","cols":0,"rows":5}`)); !errors.Is(err, wire.ErrInvalid) {
		t.Fatalf("resize to 0 cols: %v", err)
	}
	if _, err := s.HandleClient(t.Context(), []byte(`{"type":"resize","cols":100,"rows":40}`)); err != nil {
		t.Fatal(err)
	}
	r := replay(t, attach(t, term.Log(), ""))
	if !slices.Equal(types(r.afterHist), []any{"activity", "error"}) || r.afterHist[1]["code"] != "start_failed" {
		t.Fatalf("tail %v", r.afterHist)
	}
	want := []string{"failed could not start", "size 100x40"}
	if got := rep.all(); !slices.Equal(got, want) || !slices.Equal(sizes, []string{"100 40"}) {
		t.Fatalf("reports %q, OnResize %q", got, sizes)
	}
}
