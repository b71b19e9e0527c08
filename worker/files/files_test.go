package files

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/worker"
	"github.com/agentdesk/agentdesk/worker/workertest"
)

func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "files-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		os.RemoveAll(home)
		os.Exit(code)
	}))
}

func newRuntime(t *testing.T, dir string) *Runtime {
	t.Helper()
	var mu sync.Mutex
	info := worker.Info{Kind: worker.KindFiles}
	rt, err := New(t.Context(), worker.Env{Info: info, Session: worker.Session{Cwd: dir}, Log: slog.Default(),
		Report: workertest.Reporter{Mu: &mu, Info: &info}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if info.Status != worker.StatusRunning {
		t.Errorf("New reported %q, want running", info.Status)
	}
	mu.Unlock()
	r := rt.(*Runtime)
	t.Cleanup(func() { _ = r.Stop(context.Background()) })
	return r
}

type frame struct {
	Type  string
	Paths []string
}

// next reads the stream's next frame: the replay's first, then live ones.
func next(t *testing.T, st *hub.Stream, replayed *bool) frame {
	t.Helper()
	var data []byte
	if !*replayed {
		*replayed = true
		_ = st.Replay(func(f hub.Frame) error { data = f.Data; return nil })
	} else {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		f, err := st.Sub.Recv(ctx)
		if err != nil {
			t.Fatalf("no frame: %v", err)
		}
		data = f.Data
	}
	var fr frame
	if err := json.Unmarshal(data, &fr); err != nil {
		t.Fatal(err)
	}
	return fr
}

func watch(t *testing.T, r *Runtime, paths ...string) *hub.Stream {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "watch", "paths": paths})
	st, err := r.HandleClient(t.Context(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestChangesOfWatchedFolders: a socket watches two folders (and names
// one that is no folder, dropped); a file created in one is reported as
// that folder; the folders are watched only while a stream asks for them.
func TestChangesOfWatchedFolders(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"src", "docs", "other"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := newRuntime(t, dir)
	first, err := r.Attach(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	replayed := false
	if f := next(t, first, &replayed); f.Type != "fs-watching" || len(f.Paths) != 0 {
		t.Fatalf("attach replays %+v", f)
	}
	st := watch(t, r, "src", "", "missing", "../x", "src")
	first.Close() // the server closes the stream a watch replaced
	replayed = false
	if f := next(t, st, &replayed); f.Type != "fs-watching" || !slices.Equal(f.Paths, []string{"src", "."}) {
		t.Fatalf("watch answered %+v", f)
	}
	if got := r.Watching(); !slices.Equal(got, []string{".", "src"}) {
		t.Fatalf("watching %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "other/x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/new.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if f := next(t, st, &replayed); f.Type != "fs-changed" || !slices.Equal(f.Paths, []string{"src"}) {
		t.Fatalf("change frame %+v, want src only", f)
	}
	st.Close()
	if got := r.Watching(); got != nil {
		t.Fatalf("still watching %q with no stream", got)
	}
}

// TestGitIndexChangeReloadsEveryFolder: staging a file changes marks
// without touching the folders: every watched folder is reported.
func TestGitIndexChangeReloadsEveryFolder(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	run("init", "-q")
	if err := os.MkdirAll(filepath.Join(dir, "a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a/b/f.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRuntime(t, dir)
	st := watch(t, r, ".", "a")
	defer st.Close()
	replayed := false
	next(t, st, &replayed)
	run("add", "a/b/f.txt")
	f := next(t, st, &replayed)
	if f.Type != "fs-changed" || !slices.Equal(f.Paths, []string{".", "a"}) {
		t.Fatalf("after git add: %+v, want both folders", f)
	}
}

func TestBadFrames(t *testing.T) {
	r := newRuntime(t, t.TempDir())
	for _, raw := range []string{`nope`, `{"type":"refresh"}`, `{"type":"watch","paths":` + strings.Repeat(`"a",`, 1000) + `"a"]}`} {
		if _, err := r.HandleClient(t.Context(), []byte(raw)); !errors.Is(err, worker.ErrInvalid) {
			t.Errorf("%.40s: %v, want ErrInvalid", raw, err)
		}
	}
	if err := r.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.HandleClient(t.Context(), []byte(`{"type":"watch","paths":["."]}`)); !errors.Is(err, worker.ErrNotRunning) {
		t.Fatalf("watch after Stop: %v", err)
	}
}

// FuzzHandleClient hands arbitrary frames to a files worker: none may
// panic; a frame is either a watch (answered with a stream, closed here)
// or refused as invalid.
func FuzzHandleClient(f *testing.F) {
	for _, s := range []string{`{"type":"watch","paths":["."]}`, `{"type":"watch","paths":["..","/etc",""]}`,
		`{"type":"watch"}`, `{"type":"watch","paths":null}`, `{"type":"refresh"}`, `[]`, `{`, `{"type":"watch","paths":[1]}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "a"), 0o755); err != nil {
		f.Fatal(err)
	}
	var mu sync.Mutex
	info := worker.Info{Kind: worker.KindFiles}
	rt, err := New(context.Background(), worker.Env{Info: info, Session: worker.Session{Cwd: dir}, Log: slog.Default(),
		Report: workertest.Reporter{Mu: &mu, Info: &info}})
	if err != nil {
		f.Fatal(err)
	}
	r := rt.(*Runtime)
	f.Cleanup(func() { _ = r.Stop(context.Background()) })
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := r.HandleClient(t.Context(), data)
		if err != nil {
			if !errors.Is(err, worker.ErrInvalid) {
				t.Fatalf("%q: %v", data, err)
			}
			return
		}
		st.Close()
		if w := r.Watching(); w != nil {
			t.Fatalf("still watching %q after the stream closed", w)
		}
	})
}
