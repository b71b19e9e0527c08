package gitdiff

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// flushRec is one debounced batch seen by a test watcher.
type flushRec struct {
	fired bool
	paths map[string]struct{}
}

// watchProbe records what a test watcher did.
type watchProbe struct {
	changes atomic.Int64
	flushes chan flushRec
}

// startWatch watches dir with a short debounce and test hooks.
func startWatch(t *testing.T, dir string) *watchProbe {
	t.Helper()
	p := &watchProbe{flushes: make(chan flushRec, 1000)}
	w, err := watch(t.Context(), dir, 20*time.Millisecond, func(bool) { p.changes.Add(1) },
		watchHooks{flushed: func(fired bool, paths map[string]struct{}) { p.flushes <- flushRec{fired, paths} }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return p
}

// settle writes an ignored marker file in r and waits until the batch that
// carries it is judged, so every earlier event has been judged too. It
// reports whether any batch up to then fired.
func (p *watchProbe) settle(t *testing.T, r *testRepo, tag string) (fired bool) {
	t.Helper()
	marker := "settle-" + tag + ".ignored"
	r.write(marker, tag)
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case f := <-p.flushes:
			fired = fired || f.fired
			if _, ok := f.paths[marker]; ok {
				return fired
			}
		case <-deadline:
			t.Fatalf("settle %s: marker not seen within 10s", tag)
		}
	}
}

func watchedRepo(t *testing.T) *testRepo {
	r := newRepo(t, "main")
	r.write("tracked.txt", "v1\n")
	r.write(".gitignore", "*.log\n*.ignored\nbuild/\n")
	r.commit("base")
	return r
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestWatchFires(t *testing.T) {
	r := watchedRepo(t)
	p := startWatch(t, r.dir)
	steps := []struct {
		name string
		do   func()
	}{
		{"edit", func() { r.write("tracked.txt", "v2\n") }},
		{"mkdir", func() { mkdir(t, filepath.Join(r.dir, "newdir")) }},
		{"write-in-new-dir", func() { r.write("newdir/file.txt", "x\n") }}, // needs newdir watched
		{"mkdir-deep", func() { mkdir(t, filepath.Join(r.dir, "a", "b", "c")) }},
		{"write-deep", func() { r.write("a/b/c/f.txt", "x\n") }},
		{"chmod", func() {
			if err := os.Chmod(filepath.Join(r.dir, "tracked.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"delete", func() { r.remove("tracked.txt") }},
		{"commit", func() { r.git("commit", "-q", "--allow-empty", "-m", "empty") }},
		{"checkout", func() { r.git("checkout", "-q", "-b", "topic/x") }},
		{"stage", func() { r.git("add", "newdir/file.txt") }},
		{"reset", func() { r.git("reset", "-q", "--hard", "HEAD") }},
	}
	for i, s := range steps {
		s.do()
		if !p.settle(t, r, s.name) {
			t.Fatalf("%s did not fire", s.name)
		}
		if n := p.changes.Load(); n < int64(i+1) {
			t.Fatalf("after %s: onChange called %d times", s.name, n)
		}
	}
}

func TestWatchSkipsIgnoredAndGitInternals(t *testing.T) {
	r := watchedRepo(t)
	p := startWatch(t, r.dir)
	steps := []struct {
		name string
		do   func()
	}{
		{"ignored-file", func() { r.write("debug.log", "noise\n") }},
		{"ignored-dir", func() { mkdir(t, filepath.Join(r.dir, "build", "deep")) }},
		{"in-ignored-dir", func() { r.write("build/deep/out.o", "obj") }},
		{"object", func() { r.git("hash-object", "-w", ".gitignore") }},
		{"git-internals", func() {
			for _, name := range []string{"index.lock", "FETCH_HEAD", "ORIG_HEAD", "logs/HEAD",
				"objects/info/x", "refs/tags/v1", "HEAD.lock", "refs/heads/main.lock"} {
				r.write(filepath.Join(".git", name), "x")
			}
			r.remove(".git/index.lock")
		}},
	}
	for _, s := range steps {
		s.do()
		if p.settle(t, r, s.name) {
			t.Fatalf("%s fired", s.name)
		}
	}
	if n := p.changes.Load(); n != 0 {
		t.Fatalf("onChange called %d times, want 0", n)
	}
	r.write("tracked.txt", "v2\n")
	if !p.settle(t, r, "tracked") {
		t.Fatal("tracked edit after ignored ones did not fire")
	}
}

func TestWatchLinkedWorktree(t *testing.T) {
	r := watchedRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", "-b", "side", wt)
	side := &testRepo{t: t, dir: wt}
	p := startWatch(t, wt)
	side.git("commit", "-q", "--allow-empty", "-m", "on side")
	if !p.settle(t, side, "commit") {
		t.Fatal("commit in linked worktree did not fire")
	}
	side.write("f.txt", "x\n")
	if !p.settle(t, side, "edit") {
		t.Fatal("edit in linked worktree did not fire")
	}
	r.write("main-only.txt", "x\n") // the main work tree is not watched
	if p.settle(t, side, "main-tree") {
		t.Fatal("a change in the main work tree fired")
	}
}

func TestWatchNotRepo(t *testing.T) {
	w, err := Watch(t.Context(), t.TempDir(), 0, func() {})
	if !errors.Is(err, ErrNotRepo) || w != nil {
		t.Fatalf("Watch = %v, %v; want ErrNotRepo", w, err)
	}
}

func TestWatchCloseLeavesNoGoroutine(t *testing.T) {
	r := watchedRepo(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var calls atomic.Int64
	w, err := Watch(ctx, r.dir, time.Millisecond, func() { calls.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	r.write("tracked.txt", "v2\n")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	goleak.VerifyNone(t)
	after := calls.Load()
	r.write("tracked.txt", "v3\n")
	if calls.Load() != after {
		t.Fatal("onChange called after Close")
	}

	// Cancelling the context stops it too; Close then just waits.
	w2, err := Watch(ctx, r.dir, 0, func() {})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t)
}
