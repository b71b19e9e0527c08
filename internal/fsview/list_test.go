package fsview_test

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/fsview"
	"github.com/agentdesk/agentdesk/internal/wire"
)

// TestList100000FilesInPages lists a folder of 100,000 files page by page:
// every name comes exactly once, in order, and the last page has no Next.
func TestList100000FilesInPages(t *testing.T) {
	f := newFixture(t)
	const n = 100_000
	if err := os.Mkdir(f.path("many"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		fh, err := os.Create(f.path(fmt.Sprintf("many/f%06d", i)))
		if err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	var names []string
	cursor, pages := "", 0
	for {
		page, err := f.tree.List(t.Context(), "many", cursor, wire.FSPageMax)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != n || len(page.Entries) > wire.FSPageMax {
			t.Fatalf("page %d: total %d, %d entries", pages, page.Total, len(page.Entries))
		}
		for _, e := range page.Entries {
			names = append(names, e.Name)
		}
		pages++
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	if len(names) != n || !slices.IsSorted(names) || pages != n/wire.FSPageMax {
		t.Fatalf("%d names in %d pages, sorted %v", len(names), pages, slices.IsSorted(names))
	}
	if len(slices.Compact(names)) != n {
		t.Fatal("a name came twice")
	}
}

// TestListOrderAndTypes: folders first, then by name ignoring case; .git
// hidden; sizes, exec bits and types; a bad cursor refused.
func TestListOrderAndTypes(t *testing.T) {
	f := newFixture(t)
	f.write(t, "b.txt", "12345")
	f.write(t, "A.txt", "")
	f.write(t, "zdir/x", "")
	f.write(t, "Adir/x", "")
	f.write(t, ".git/HEAD", "")
	f.write(t, "run", "")
	if err := os.Chmod(f.path("run"), 0o755); err != nil {
		t.Fatal(err)
	}
	page, err := f.tree.List(t.Context(), "", "", 2)
	if err != nil {
		t.Fatal(err)
	}
	rest, err := f.tree.List(t.Context(), ".", page.Next, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range append(page.Entries, rest.Entries...) {
		got = append(got, fmt.Sprintf("%s:%s:%d:%v", e.Name, e.Type, e.Size, e.Exec))
	}
	want := []string{"Adir:dir:0:false", "zdir:dir:0:false", "A.txt:file:0:false", "b.txt:file:5:false", "run:file:0:true"}
	if !slices.Equal(got, want) || page.Total != 5 || rest.Next != "" || page.Repo {
		t.Fatalf("listing %q (total %d, next %q, repo %v), want %q", got, page.Total, rest.Next, page.Repo, want)
	}
	if _, err := f.tree.List(t.Context(), ".", "zzz", 0); codeOf(err) != wire.CodeInvalidField {
		t.Fatalf("bad cursor: %v", err)
	}
	if _, err := f.tree.List(t.Context(), "b.txt", "", 0); codeOf(err) != wire.CodeInvalidField {
		t.Fatalf("listing a file: %v", err)
	}
	if _, err := f.tree.List(t.Context(), "none", "", 0); codeOf(err) != wire.CodeNotFound {
		t.Fatalf("listing a missing folder: %v", err)
	}
}

// TestListGitMarks lists folders of a real repository: changed, added,
// untracked and ignored entries carry their marks, a folder with a change
// below is "changed", and node_modules and ignored folders are folded.
func TestListGitMarks(t *testing.T) {
	f := newFixture(t)
	git(t, f.dir, "init", "-q")
	f.write(t, ".gitignore", "build/\n*.log\n")
	f.write(t, "src/a.go", "a")
	f.write(t, "src/deep/b.go", "b")
	f.write(t, "clean.txt", "c")
	git(t, f.dir, "add", ".")
	git(t, f.dir, "commit", "-q", "-m", "one")
	f.write(t, "src/a.go", "changed")
	f.write(t, "src/staged.go", "s")
	git(t, f.dir, "add", "src/staged.go")
	f.write(t, "src/new.go", "n")
	f.write(t, "src/x.log", "l")
	f.write(t, "build/out", "o")
	f.write(t, "node_modules/m/i.js", "i")
	f.write(t, "fresh/f", "f")
	marks := func(p string) map[string]string {
		t.Helper()
		page, err := f.tree.List(t.Context(), p, "", 0)
		if err != nil || !page.Repo {
			t.Fatalf("List(%s): %v, repo %v", p, err, page.Repo)
		}
		m := map[string]string{}
		for _, e := range page.Entries {
			m[e.Name] = e.Git
			if e.Folded {
				m[e.Name] += "+folded"
			}
		}
		return m
	}
	checks := []struct {
		folder string
		want   map[string]string
	}{
		{".", map[string]string{"src": "changed", "build": "ignored+folded", "node_modules": "untracked+folded", "fresh": "untracked", "clean.txt": "", ".gitignore": ""}},
		{"src", map[string]string{"a.go": "modified", "staged.go": "added", "new.go": "untracked", "x.log": "ignored", "deep": ""}},
		{"build", map[string]string{"out": "ignored"}},
		{"fresh", map[string]string{"f": "untracked"}},
	}
	for _, c := range checks {
		got := marks(c.folder)
		for name, want := range c.want {
			if got[name] != want {
				t.Errorf("%s/%s: mark %q, want %q", c.folder, name, got[name], want)
			}
		}
	}
}

// git runs a test-setup git command in dir.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestStatTellsWhatGitCanRestore: a tracked clean file can be restored, an
// untracked one cannot, and a folder holding both says both.
func TestStatTellsWhatGitCanRestore(t *testing.T) {
	f := newFixture(t)
	git(t, f.dir, "init", "-q")
	f.write(t, "d/tracked.txt", "t")
	git(t, f.dir, "add", ".")
	git(t, f.dir, "commit", "-q", "-m", "one")
	f.write(t, "d/untracked.txt", "u")
	cases := []struct {
		path               string
		tracked, untracked bool
	}{
		{"d/tracked.txt", true, false},
		{"d/untracked.txt", false, true},
		{"d", true, true},
	}
	for _, c := range cases {
		info, err := f.tree.Stat(t.Context(), c.path)
		if err != nil {
			t.Fatal(err)
		}
		if !info.Repo || info.Tracked != c.tracked || info.Untracked != c.untracked {
			t.Errorf("Stat(%s) = %+v, want tracked %v untracked %v", c.path, info, c.tracked, c.untracked)
		}
	}
	_ = fsview.TypeDir
}
