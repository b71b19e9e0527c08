package gitdiff

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/wire"
	"github.com/agentdesk/agentdesk/worker"
)

// fakeReports keeps what a runtime reported, as the manager would.
type fakeReports struct {
	mu   sync.Mutex
	info worker.Info
}

func (f *fakeReports) set(fn func(*worker.Info)) { f.mu.Lock(); fn(&f.info); f.mu.Unlock() }

func (f *fakeReports) Running() {
	f.set(func(i *worker.Info) { i.Status, i.Error = worker.StatusRunning, nil })
}
func (f *fakeReports) Failed(err error) {
	f.set(func(i *worker.Info) { i.Status, i.Error = worker.StatusError, ptr(err.Error()) })
}
func (f *fakeReports) Exited(int, string, string) {
	f.set(func(i *worker.Info) { i.Status = worker.StatusExited })
}
func (f *fakeReports) Activity(worker.Activity) {}
func (f *fakeReports) Size(int, int)            {}
func (f *fakeReports) Problem(string)           {}
func (f *fakeReports) Base(b string)            { f.set(func(i *worker.Info) { i.Base = b }) }
func (f *fakeReports) Current(worker.Current)   {}

func ptr[T any](v T) *T { return &v }

func newRuntime(t *testing.T, dir, base string) (*Runtime, *fakeReports) {
	t.Helper()
	fe := &fakeReports{info: worker.Info{Kind: worker.KindGitDiff, Base: base}}
	env := worker.Env{
		Info: fe.info, Session: worker.Session{Cwd: dir}, Log: slog.Default(), Report: fe,
	}
	rt, err := New(t.Context(), env)
	if err != nil {
		t.Fatal(err)
	}
	fe.mu.Lock()
	status := fe.info.Status
	fe.mu.Unlock()
	if status != worker.StatusRunning {
		t.Errorf("New reported status %q, want running", status)
	}
	r := rt.(*Runtime)
	t.Cleanup(func() { _ = r.Stop(context.Background()) })
	return r, fe
}

// nextDiff waits for a diff frame that satisfies ok, from the replay or
// the live subscription.
func nextDiff(t *testing.T, st *hub.Stream, ok func(Diff) bool) Diff {
	t.Helper()
	var found *Diff
	check := func(f hub.Frame) error {
		var d struct {
			Type string
			Diff
		}
		if json.Unmarshal(f.Data, &d) == nil && d.Type == "diff" && ok(d.Diff) {
			found = &d.Diff
		}
		return nil
	}
	if err := st.Replay(check); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for found == nil {
		f, err := st.Sub.Recv(ctx)
		if err != nil {
			t.Fatalf("no matching diff frame: %v", err)
		}
		_ = check(f)
	}
	return *found
}

func hasPath(p string) func(Diff) bool {
	return func(d Diff) bool {
		for _, f := range d.Files {
			if f.Path == p {
				return true
			}
		}
		return false
	}
}

func TestRuntimeLiveDiff(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "one\n")
	r.commit("first")
	rt, _ := newRuntime(t, r.dir, "")
	st, err := rt.Attach(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	nextDiff(t, st, func(d Diff) bool { return len(d.Files) == 0 })
	if !rt.Watching() {
		t.Fatal("no watcher while a client is attached")
	}
	r.write("a.txt", "one\ntwo\n")
	d := nextDiff(t, st, hasPath("a.txt"))
	if d.Files[0].Additions != 1 {
		t.Fatalf("diff after edit: %+v", d.Files)
	}
	st.Close()
	if rt.Watching() {
		t.Fatal("watcher still runs after the last client left")
	}
}

func TestRuntimeSetBase(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "one\n")
	first := r.commit("first")
	r.write("b.txt", "two\n")
	r.commit("second")
	rt, fe := newRuntime(t, r.dir, "")
	st, err := rt.Attach(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, bad := range []string{"--upload-pack=touch /tmp/x", "nope", "HEAD:a.txt", "a..b"} {
		_, err := rt.HandleClient(t.Context(), []byte(`{"type":"set-base","base":`+quote(bad)+`}`))
		var ce *worker.CodeError
		if !errors.As(err, &ce) || ce.Code != wire.CodeInvalidBase {
			t.Fatalf("set-base %q: %v", bad, err)
		}
	}
	if _, err := rt.HandleClient(t.Context(), []byte(`{"type":"set-base","base":"`+first+`"}`)); err != nil {
		t.Fatal(err)
	}
	d := nextDiff(t, st, hasPath("b.txt"))
	if d.Base != first {
		t.Fatalf("base %s, want %s", d.Base, first)
	}
	fe.mu.Lock()
	defer fe.mu.Unlock()
	if fe.info.Base != first {
		t.Fatalf("base not kept: %q", fe.info.Base)
	}
}

// TestValidate: the options New would refuse, Validate refuses first, so
// that the manager stores nothing of such a worker.
func TestValidate(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "x\n")
	r.commit("c")
	env := func(dir, base string) worker.Env {
		return worker.Env{Info: worker.Info{Kind: worker.KindGitDiff, Base: base}, Session: worker.Session{Cwd: dir}, Log: slog.Default()}
	}
	if err := Validate(t.Context(), env(t.TempDir(), "")); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("not a work tree: %v", err)
	}
	for _, bad := range []string{"no-such-ref", "--upload-pack=touch /tmp/x", "HEAD:a.txt"} {
		err := Validate(t.Context(), env(r.dir, bad))
		var ce *worker.CodeError
		if !errors.As(err, &ce) || ce.Code != wire.CodeInvalidBase || !errors.Is(err, worker.ErrInvalid) {
			t.Fatalf("base %q: %v", bad, err)
		}
	}
	for _, good := range []string{"", "main", "HEAD"} {
		if err := Validate(t.Context(), env(r.dir, good)); err != nil {
			t.Fatalf("base %q: %v", good, err)
		}
	}
}

func TestRuntimeRefusals(t *testing.T) {
	env := worker.Env{Session: worker.Session{Cwd: t.TempDir()}, Log: slog.Default(), Report: &fakeReports{}}
	if _, err := New(t.Context(), env); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("not a work tree: %v", err)
	}
	r := newRepo(t, "main")
	r.write("a.txt", "x\n")
	r.commit("c")
	rt, _ := newRuntime(t, r.dir, "")
	for _, f := range []string{`{`, `{"type":"bogus"}`, `[]`} {
		if _, err := rt.HandleClient(t.Context(), []byte(f)); !errors.Is(err, worker.ErrInvalid) {
			t.Fatalf("frame %s: %v", f, err)
		}
	}
	if _, err := rt.Diff(t.Context(), "../../etc/passwd"); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("hostile path: %v", err)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return strings.TrimSpace(string(b))
}

// TestDefaultBaseFollowsCommits: the default base (the merge base with
// main) is computed again when HEAD or main moves. A commit on main makes
// HEAD the new base, so the diff is empty again; main moving up to a
// branch's HEAD does the same for the branch; and a REST diff without any
// client (no watcher) sees a commit too.
func TestDefaultBaseFollowsCommits(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "one\n")
	first := r.commit("first")
	rt, _ := newRuntime(t, r.dir, "")
	st, err := rt.Attach(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	nextDiff(t, st, func(d Diff) bool { return len(d.Files) == 0 })

	r.write("b.txt", "two\n")
	second := r.commit("second on main")
	// A diff computed while the commit was under way may pair the new
	// HEAD with the old base; the watcher's next batch puts it right.
	d := nextDiff(t, st, func(d Diff) bool { return d.Base != first })
	if d.Base != second || d.Head == nil || *d.Head != second || len(d.Files) != 0 {
		t.Fatalf("after a commit on main: base %s (want %s), files %v", d.Base, second, paths(d.Files))
	}

	r.git("checkout", "-q", "-b", "feat")
	r.write("c.txt", "three\n")
	feat := r.commit("on feat")
	d = nextDiff(t, st, func(d Diff) bool { return d.Head != nil && *d.Head == feat && hasPath("c.txt")(d) })
	if d.Base != second {
		t.Fatalf("on feat: base %s, want main's %s", d.Base, second)
	}
	r.git("update-ref", "refs/heads/main", feat) // main moves up to feat
	d = nextDiff(t, st, func(d Diff) bool { return d.Base != second })
	if d.Base != feat || len(d.Files) != 0 {
		t.Fatalf("after main moved: base %s (want %s), files %v", d.Base, feat, paths(d.Files))
	}

	st.Close() // no client: no watcher
	r.git("checkout", "-q", "main")
	r.write("d.txt", "four\n")
	last := r.commit("while nobody watched")
	got, err := rt.Diff(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if d := got.(*Diff); d.Base != last || len(d.Files) != 0 {
		t.Fatalf("REST diff: base %s (want %s), files %v", d.Base, last, paths(d.Files))
	}
}

// TestDefaultBaseFollowsAFetch: in a clone, the default base is the merge
// base with origin/HEAD; when a fetch brings origin/main up to the
// branch's commit (it was merged upstream), the base follows.
func TestDefaultBaseFollowsAFetch(t *testing.T) {
	origin := newRepo(t, "main")
	origin.write("a.txt", "one\n")
	first := origin.commit("first")
	clone := &testRepo{t: t, dir: filepath.Join(t.TempDir(), "clone")}
	runGit(t, "", "clone", "-q", origin.dir, clone.dir)
	clone.git("checkout", "-q", "-b", "feat")
	clone.write("b.txt", "two\n")
	feat := clone.commit("on feat")

	rt, _ := newRuntime(t, clone.dir, "")
	st, err := rt.Attach(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := nextDiff(t, st, hasPath("b.txt"))
	if d.Base != first {
		t.Fatalf("base %s, want origin/main's %s", d.Base, first)
	}
	clone.git("push", "-q", "origin", "feat")
	origin.git("update-ref", "refs/heads/main", feat) // merged upstream
	clone.git("fetch", "-q", "origin")
	d = nextDiff(t, st, func(d Diff) bool { return d.Base != first })
	if d.Base != feat || len(d.Files) != 0 {
		t.Fatalf("after the fetch: base %s (want %s), files %v", d.Base, feat, paths(d.Files))
	}
}
