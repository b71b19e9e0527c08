package review

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/wire"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repo has a.go committed with five lines, then edited in the work tree:
// line 2 changed, a line added at the end. It returns the top and the
// commit.
func repo(t *testing.T) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, "", "init", "-q", "-b", "main", dir)
	write(t, filepath.Join(dir, "a.go"), "l1\nl2\nl3\nl4\nl5\n")
	git(t, dir, "add", "a.go")
	git(t, dir, "commit", "-q", "-m", "first")
	write(t, filepath.Join(dir, "a.go"), "l1\nL2 new\nl3\nl4\nl5\nl6 added\n")
	return dir, git(t, dir, "rev-parse", "HEAD")
}

func TestCaptureQuotesEachSide(t *testing.T) {
	top, base := repo(t)
	ctx := context.Background()
	got, err := Capture(ctx, top, base, Range{Path: "a.go", Side: SideNew, StartLine: 2, EndLine: 3})
	if err != nil || !slices.Equal(got, []string{"L2 new", "l3"}) {
		t.Fatalf("new side: %q %v", got, err)
	}
	got, err = Capture(ctx, top, base, Range{Path: "a.go", Side: SideOld, StartLine: 2, EndLine: 2})
	if err != nil || !slices.Equal(got, []string{"l2"}) {
		t.Fatalf("old side: %q %v", got, err)
	}
	got, err = Capture(ctx, top, base, Range{Path: "a.go", Side: SideNew, StartLine: 6, EndLine: 6})
	if err != nil || !slices.Equal(got, []string{"l6 added"}) {
		t.Fatalf("last line: %q %v", got, err)
	}
}

func TestCaptureRefusesBadRanges(t *testing.T) {
	top, base := repo(t)
	write(t, filepath.Join(top, "new.txt"), "only in the work tree\n")
	if err := os.Symlink("/etc/passwd", filepath.Join(top, "out")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		r     Range
		field string
	}{
		{"empty path", Range{"", SideNew, 1, 1}, "path"},
		{"absolute", Range{"/etc/passwd", SideNew, 1, 1}, "path"},
		{"leaves the tree", Range{"../x", SideNew, 1, 1}, "path"},
		{"unclean", Range{"x/../a.go", SideNew, 1, 1}, "path"},
		{"symlink out", Range{"out", SideNew, 1, 1}, "path"},
		{"missing", Range{"nope.go", SideNew, 1, 1}, "path"},
		{"not on the old side", Range{"new.txt", SideOld, 1, 1}, "path"},
		{"side", Range{"a.go", "both", 1, 1}, "side"},
		{"zero", Range{"a.go", SideNew, 0, 1}, "startLine"},
		{"backwards", Range{"a.go", SideNew, 3, 2}, "endLine"},
		{"past the new end", Range{"a.go", SideNew, 6, 7}, "endLine"},
		{"past the old end", Range{"a.go", SideOld, 6, 6}, "endLine"},
		{"too many lines", Range{"a.go", SideNew, 1, MaxRange + 1}, "endLine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Capture(context.Background(), top, base, c.r)
			var fe *wire.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Fatalf("want a field error on %s, got %v", c.field, err)
			}
		})
	}
}

// TestMarkOutdated: a comment is outdated once the lines it quoted are
// no longer there, on its side; others stay current.
func TestMarkOutdated(t *testing.T) {
	top, base := repo(t)
	ctx := context.Background()
	mk := func(side string, start, end int) Comment {
		q, err := Capture(ctx, top, base, Range{"a.go", side, start, end})
		if err != nil {
			t.Fatal(err)
		}
		return Comment{Path: "a.go", Side: side, StartLine: start, EndLine: end, Quote: q}
	}
	cs := []Comment{mk(SideNew, 2, 3), mk(SideNew, 4, 5), mk(SideOld, 2, 2), mk(SideNew, 6, 6)}
	Mark(ctx, top, base, cs)
	for i, c := range cs {
		if c.Outdated {
			t.Fatalf("comment %d outdated before any change", i)
		}
	}
	// The agent edits line 3 and drops the last line.
	write(t, filepath.Join(top, "a.go"), "l1\nL2 new\nl3 edited\nl4\nl5\n")
	Mark(ctx, top, base, cs)
	if got := []bool{cs[0].Outdated, cs[1].Outdated, cs[2].Outdated, cs[3].Outdated}; !slices.Equal(got, []bool{true, false, false, true}) {
		t.Fatalf("outdated after the edit: %v, want [true false false true]", got)
	}
	// A new base (the change committed): the old side's line 2 changed.
	git(t, top, "commit", "-qam", "second")
	Mark(ctx, top, git(t, top, "rev-parse", "HEAD"), cs)
	if !cs[2].Outdated {
		t.Fatal("old-side comment current although the base's line changed")
	}
	// The file removed: every comment on it is outdated.
	if err := os.Remove(filepath.Join(top, "a.go")); err != nil {
		t.Fatal(err)
	}
	Mark(ctx, top, base, cs)
	if !cs[1].Outdated {
		t.Fatal("comment on a deleted file is current")
	}
}

func TestMessage(t *testing.T) {
	cs := []Comment{
		{Path: "a.go", Side: SideNew, StartLine: 9, EndLine: 10, Quote: []string{"x := 1", "```"}, Body: " Use a constant. \n"},
		{Path: "b.go", Side: SideOld, StartLine: 3, EndLine: 3, Quote: []string{"old()"}, Base: "0123456789abcdef0123", Body: "Why was this removed?"},
	}
	want := "Review of your changes: 2 comments on the diff. Each names a file and lines, quotes them, and says what to change. Please address each one.\n" +
		"\n## 1. a.go:9-10 (new side: the file as it is now)\n\n" +
		"````\n 9 | x := 1\n10 | ```\n````\n\nUse a constant.\n" +
		"\n## 2. b.go:3 (old side: the file as it was at 0123456789ab, before your changes)\n\n" +
		"```\n3 | old()\n```\n\nWhy was this removed?\n"
	if got := Message(cs); got != want {
		t.Fatalf("message:\n%s\nwant:\n%s", got, want)
	}
}
