package gitdiff

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// editedRepo has f.txt committed with 40 lines, then edited at line 2 and
// line 35: two hunks in the unstaged side.
func editedRepo(t *testing.T) *testRepo {
	t.Helper()
	r := newRepo(t, "main")
	r.git("config", "user.name", "Test")
	r.git("config", "user.email", "test@example.com")
	r.write("f.txt", lines(40))
	r.commit("first")
	edited := strings.Replace(lines(40), "line 2\n", "line two\n", 1)
	r.write("f.txt", strings.Replace(edited, "line 35\n", "line thirty-five\n", 1))
	return r
}

func stage(t *testing.T, r *testRepo) *Stage {
	t.Helper()
	st, err := ComputeStage(t.Context(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func find(t *testing.T, files []IndexFile, path string) IndexFile {
	t.Helper()
	for _, f := range files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("%s not in %+v", path, files)
	return IndexFile{}
}

// porcelain is git's own view of the index and work tree, untrimmed: the
// leading column says staged or not.
func (r *testRepo) porcelain() string {
	r.t.Helper()
	out, err := exec.Command("git", "-C", r.dir, "status", "--porcelain=v1", "--untracked-files=all").Output()
	if err != nil {
		r.t.Fatal(err)
	}
	return strings.TrimSuffix(string(out), "\n")
}

func TestStageAndUnstageHunk(t *testing.T) {
	r := editedRepo(t)
	f := find(t, stage(t, r).Unstaged, "f.txt")
	if len(f.Hunks) != 2 || len(f.HunkIDs) != 2 {
		t.Fatalf("want two hunks: %+v", f)
	}
	if err := StageHunk(t.Context(), r.dir, "f.txt", f.HunkIDs[1]); err != nil {
		t.Fatal(err)
	}
	cached := r.git("diff", "--cached", "-U0")
	if !strings.Contains(cached, "-line 35\n+line thirty-five") || strings.Contains(cached, "line two") {
		t.Fatalf("index holds the wrong change:\n%s", cached)
	}
	if unstaged := r.git("diff", "-U0"); !strings.Contains(unstaged, "+line two") || strings.Contains(unstaged, "thirty-five") {
		t.Fatalf("work tree diff:\n%s", unstaged)
	}
	if got := r.porcelain(); got != "MM f.txt" {
		t.Fatalf("status %q", got)
	}
	s := find(t, stage(t, r).Staged, "f.txt")
	if err := UnstageHunk(t.Context(), r.dir, "f.txt", s.HunkIDs[0]); err != nil {
		t.Fatal(err)
	}
	if cached := r.git("diff", "--cached"); cached != "" {
		t.Fatalf("index still differs from HEAD:\n%s", cached)
	}
	if got := r.porcelain(); got != " M f.txt" {
		t.Fatalf("status %q", got)
	}
	if data, _ := os.ReadFile(filepath.Join(r.dir, "f.txt")); !strings.Contains(string(data), "thirty-five") {
		t.Fatal("unstaging touched the work tree")
	}
}

func TestStaleHunkIsRefused(t *testing.T) {
	r := editedRepo(t)
	f := find(t, stage(t, r).Unstaged, "f.txt")
	// The agent edits the line again after the person saw the hunk.
	data, _ := os.ReadFile(filepath.Join(r.dir, "f.txt"))
	r.write("f.txt", strings.Replace(string(data), "thirty-five", "35!", 1))
	err := StageHunk(t.Context(), r.dir, "f.txt", f.HunkIDs[1])
	if !errors.Is(err, ErrStale) {
		t.Fatalf("stale hunk: %v", err)
	}
	if cached := r.git("diff", "--cached"); cached != "" {
		t.Fatalf("a refused hunk changed the index:\n%s", cached)
	}
	if err := StageFile(t.Context(), r.dir, "f.txt", f.Hash); !errors.Is(err, ErrStale) {
		t.Fatalf("stale file hash: %v", err)
	}
	if got := r.porcelain(); got != " M f.txt" {
		t.Fatalf("status %q", got)
	}
}

func TestStageAndUnstageFiles(t *testing.T) {
	r := editedRepo(t)
	r.write("new.txt", "new\n")
	r.write("gone.txt", "x\n")
	r.commit("second")
	r.remove("gone.txt")
	r.write("f.txt", "changed\n")
	r.write("new2.txt", "fresh\n")
	st := stage(t, r)
	for _, p := range []string{"f.txt", "gone.txt", "new2.txt"} {
		if err := StageFile(t.Context(), r.dir, p, find(t, st.Unstaged, p).Hash); err != nil {
			t.Fatalf("stage %s: %v", p, err)
		}
	}
	if got := r.porcelain(); got != "M  f.txt\nD  gone.txt\nA  new2.txt" {
		t.Fatalf("after staging: %q", got)
	}
	st = stage(t, r)
	if len(st.Unstaged) != 0 || len(st.Staged) != 3 {
		t.Fatalf("stage view: %+v", st)
	}
	for _, p := range []string{"gone.txt", "new2.txt"} {
		if err := UnstageFile(t.Context(), r.dir, p, find(t, st.Staged, p).Hash); err != nil {
			t.Fatalf("unstage %s: %v", p, err)
		}
	}
	if got := r.porcelain(); got != "M  f.txt\n D gone.txt\n?? new2.txt" {
		t.Fatalf("after unstaging: %q", got)
	}
}

func TestDiscard(t *testing.T) {
	r := editedRepo(t)
	r.write("scratch.txt", "keep me?\n")
	st := stage(t, r)
	if err := DiscardFile(t.Context(), r.dir, "f.txt", find(t, st.Unstaged, "f.txt").Hash, false); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(r.dir, "f.txt")); string(data) != lines(40) {
		t.Fatalf("not restored: %q", data)
	}
	h := find(t, st.Unstaged, "scratch.txt").Hash
	if err := DiscardFile(t.Context(), r.dir, "scratch.txt", h, false); !errors.Is(err, ErrConfirm) {
		t.Fatalf("untracked without the second confirmation: %v", err)
	}
	if got := r.porcelain(); got != "?? scratch.txt" {
		t.Fatalf("a refused discard changed something: %q", got)
	}
	if err := DiscardFile(t.Context(), r.dir, "scratch.txt", h, true); err != nil {
		t.Fatal(err)
	}
	if got := r.porcelain(); got != "" {
		t.Fatalf("after discarding both: %q", got)
	}
}

func TestPathsStayInsideTheTree(t *testing.T) {
	r := editedRepo(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(r.dir, "out")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../x", "/etc/passwd", "a/../../x", "", ".", "-A", "out/secret", "f.txt/../../x", ":(glob)*"} {
		errs := []error{
			StageFile(t.Context(), r.dir, p, ""),
			UnstageFile(t.Context(), r.dir, p, ""),
			DiscardFile(t.Context(), r.dir, p, "", true),
			StageHunk(t.Context(), r.dir, p, "x"),
		}
		for i, err := range errs {
			if !errors.Is(err, ErrInvalidPath) && !errors.Is(err, ErrStale) {
				t.Errorf("path %q op %d: %v", p, i, err)
			}
		}
	}
	if _, err := os.Stat(secret); err != nil {
		t.Fatalf("the file outside the tree: %v", err)
	}
	if got := r.porcelain(); got != " M f.txt\n?? out" {
		t.Fatalf("status %q", got)
	}
}

// TestHunkOddCases stages a hunk of a file whose name needs quoting in a
// patch and whose last line has no newline, in a repository whose config
// asks for no context lines (git apply needs them).
func TestHunkOddCases(t *testing.T) {
	r := editedRepo(t)
	r.git("config", "diff.context", "0")
	name := "we\"ird\tname.txt"
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np\nq\nr\ns\nt"
	after := strings.Replace(strings.Replace(before, "d", "D", 1), "t", "T", 1)
	r.write(name, before)
	r.commit("odd")
	r.write(name, after)
	f := find(t, stage(t, r).Unstaged, name)
	if len(f.HunkIDs) != 2 {
		t.Fatalf("hunks: %+v", f)
	}
	for _, id := range f.HunkIDs {
		if err := StageHunk(t.Context(), r.dir, name, id); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.git("show", ":"+name); got != after {
		t.Fatalf("index holds %q", got)
	}
	if got := r.git("diff", "--", name); got != "" {
		t.Fatalf("work tree still differs:\n%s", got)
	}
}
