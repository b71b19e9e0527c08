package gitops

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentdesk/agentdesk/worker"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// sessions is one session in dir; MergeWorktree is not used here.
type sessions struct{ dir string }

func (s sessions) Session(id string) (worker.Session, error) {
	if id != "s1" {
		return worker.Session{}, worker.ErrNotFound
	}
	return worker.Session{ID: id, Cwd: s.dir}, nil
}

func (sessions) MergeWorktree(context.Context, string, worker.MergeRequest) (worker.MergeResult, error) {
	return worker.MergeResult{}, errors.ErrUnsupported
}

func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "a.txt"}, {"commit", "-q", "-m", "first"}} {
		if args[0] == "add" {
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// An operation finds the session's folder and answers the new index; a
// refused one changes nothing; an unknown session is not found.
func TestStageAnswersTheIndex(t *testing.T) {
	dir := repo(t)
	g := New(sessions{dir})
	ctx := t.Context()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := g.Status(ctx, "s1")
	if err != nil || len(st.Unstaged) != 1 || len(st.Staged) != 0 {
		t.Fatalf("status: %+v %v", st, err)
	}
	f := File{Path: "a.txt", Hash: st.Unstaged[0].Hash}
	if _, err := g.Discard(ctx, "s1", File{Path: "a.txt"}); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("discard without a hash: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "two\n" {
		t.Fatalf("a refused discard changed the file: %q", b)
	}
	if _, err := g.Stage(ctx, "s1", File{Hash: f.Hash}); !errors.Is(err, worker.ErrInvalid) {
		t.Fatalf("stage without a path: %v", err)
	}
	st, err = g.Stage(ctx, "s1", f)
	if err != nil || len(st.Staged) != 1 || len(st.Unstaged) != 0 {
		t.Fatalf("after stage: %+v %v", st, err)
	}
	if _, err := g.Status(ctx, "nope"); !errors.Is(err, worker.ErrNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
}
