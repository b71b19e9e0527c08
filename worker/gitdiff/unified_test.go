package gitdiff

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/internal/gitrepo"
)

func TestParseHunkHeader(t *testing.T) {
	tests := []struct {
		in   string
		want Hunk
		ok   bool
	}{
		{"@@ -1,3 +1,4 @@", Hunk{OldStart: 1, OldLines: 3, NewStart: 1, NewLines: 4}, true},
		{"@@ -1 +1 @@", Hunk{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1}, true},
		{"@@ -0,0 +1 @@", Hunk{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 1}, true},
		{"@@ -18,3 +18,4 @@ func main() {", Hunk{OldStart: 18, OldLines: 3, NewStart: 18, NewLines: 4, Header: "func main() {"}, true},
		{"@@ -1 +1 @@  two spaces", Hunk{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Header: " two spaces"}, true},
		{"@@ -1,+3 +1 @@", Hunk{}, false},
		{"@@ --1 +1 @@", Hunk{}, false},
		{"@@ -1 +1", Hunk{}, false},
		{"@@ +1 -1 @@", Hunk{}, false},
		{"@@ -1 +9999999999 @@", Hunk{}, false},
		{"@@@ -1 -1 +1 @@@", Hunk{}, false},
	}
	for _, tt := range tests {
		got, ok := parseHunkHeader(tt.in)
		if ok != tt.ok || (ok && !hunkEqual(got, tt.want)) {
			t.Errorf("parseHunkHeader(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func hunkEqual(a, b Hunk) bool {
	return a.OldStart == b.OldStart && a.OldLines == b.OldLines && a.NewStart == b.NewStart &&
		a.NewLines == b.NewLines && a.Header == b.Header
}

func TestParseUnified(t *testing.T) {
	tests := []struct {
		name string
		in   string
		lim  Options
		want []string // per section: header|binary|truncated|op+text...
	}{
		{"dash lines inside a hunk", "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,2 @@\n--- x\n+++ y\n-a\n keep\n",
			Options{}, []string{"diff --git a/f b/f|false|false|--- x,+++ y,-a, keep"}},
		{"no newline markers", "diff --git a/f b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n",
			Options{}, []string{"diff --git a/f b/f|false|false|-a$,+b$"}},
		{"suppressBlankEmpty", "diff --git a/f b/f\n@@ -1,3 +1,3 @@\n x\n\n-y\n+z\n",
			Options{}, []string{"diff --git a/f b/f|false|false| x, ,-y,+z"}},
		{"binary", "diff --git a/b b/b\nindex 1..2 100644\nBinary files a/b and b/b differ\ndiff --git a/c b/c\n@@ -1 +1 @@\n-1\n+2\n",
			Options{}, []string{"diff --git a/b b/b|true|false|", "diff --git a/c b/c|false|false|-1,+2"}},
		{"extra lines after the counts are dropped", "diff --git a/f b/f\n@@ -1 +1 @@\n-a\n+b\n+c\n c\n",
			Options{}, []string{"diff --git a/f b/f|false|false|-a,+b"}},
		{"garbage before the first header", "warning: x\n@@ -1 +1 @@\n-a\ndiff --git a/f b/f\n",
			Options{}, []string{"diff --git a/f b/f|false|false|"}},
		{"bad hunk header skips its lines", "diff --git a/f b/f\n@@ -x +1 @@\n-a\n@@ -5 +5 @@\n-b\n+c\n",
			Options{}, []string{"diff --git a/f b/f|false|false|-b,+c"}},
		{"file lines limit", "diff --git a/f b/f\n@@ -1,2 +1,2 @@\n-a\n-b\n+c\n+d\ndiff --git a/g b/g\n@@ -1 +1 @@\n-a\n+b\n",
			Options{MaxFileLines: 3}, []string{"diff --git a/f b/f|false|true|", "diff --git a/g b/g|false|false|-a,+b"}},
		{"max files", "diff --git a/f b/f\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/g b/g\n@@ -1 +1 @@\n-a\n+b\n",
			Options{MaxFiles: 1}, []string{"diff --git a/f b/f|false|false|-a,+b", "diff --git a/g b/g|false|true|"}},
		{"long line", "diff --git a/f b/f\n@@ -1 +1 @@\n-a\n+" + strings.Repeat("x", 100<<10) + "\n",
			Options{MaxFileBytes: 64 << 10}, []string{"diff --git a/f b/f|false|true|"}},
		{"no trailing newline", "diff --git a/f b/f\n@@ -1 +1 @@\n-a\n+b",
			Options{}, []string{"diff --git a/f b/f|false|false|-a,+b"}},
		{"empty", "", Options{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			secs, err := parseUnified(strings.NewReader(tt.in), newBudget(tt.lim.withDefaults()))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range secs {
				got = append(got, describe(s))
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// describe renders a section compactly; "$" marks a line without EOL.
func describe(s section) string {
	var ls []string
	for _, h := range s.hunks {
		for _, l := range h.Lines {
			txt := l.Op + l.Text
			if l.NoEOL {
				txt += "$"
			}
			ls = append(ls, txt)
		}
	}
	return strings.Join([]string{s.header, boolStr(s.binary), boolStr(s.truncated), strings.Join(ls, ",")}, "|")
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestQuotePath(t *testing.T) {
	tests := map[string]string{
		"a/plain.txt":  "a/plain.txt",
		"a/spa ce":     "a/spa ce",
		"a/ü.txt":      "a/ü.txt",
		"a/q\"t":       `"a/q\"t"`,
		"a/tab\there":  `"a/tab\there"`,
		"a/back\\sl":   `"a/back\\sl"`,
		"a/nl\nx\x01y": `"a/nl\nx\001y"`,
		"a/del\x7f":    `"a/del\177"`,
	}
	for in, want := range tests {
		if got := quotePath(in); got != want {
			t.Errorf("quotePath(%q) = %s, want %s", in, got, want)
		}
	}
}

// realPatch is git's own patch output for a repository holding every kind
// of change (renames, binary, mode, type change, quoted paths, "--- x"
// content lines).
func realPatch(tb testing.TB) []byte {
	r, base := changeKindsRepo(tb)
	out, err := gitrepo.Git(tb.Context(), r.dir, diffArgs(base, nil)...)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func FuzzParseUnified(f *testing.F) {
	real := realPatch(f)
	f.Add(real, 0)
	f.Add(real, 40)
	f.Add([]byte("diff --git a/f b/f\n@@ -1,3 +1,3 @@\n x\n\n-y\n\\ No newline at end of file\n+z\n"), 0)
	f.Add([]byte("diff --git a/b b/b\nBinary files a/b and b/b differ\n"), 3)
	f.Add([]byte("diff --git a/f b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		o := Options{}
		if limit > 0 {
			o = Options{MaxFileBytes: limit % 4096, MaxFileLines: limit % 50, MaxFiles: limit % 7, MaxTotalBytes: limit}
		}
		secs, err := parseUnified(bytes.NewReader(data), newBudget(o.withDefaults()))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secs {
			checkSection(t, s)
		}
	})
}

// checkSection asserts the invariants of a parsed section.
func checkSection(t *testing.T, s section) {
	if !strings.HasPrefix(s.header, "diff --git ") {
		t.Fatalf("header %q", s.header)
	}
	if s.truncated && len(s.hunks) > 0 {
		t.Fatal("truncated section has hunks")
	}
	for _, h := range s.hunks {
		oldN, newN := 0, 0
		for _, l := range h.Lines {
			switch l.Op {
			case OpContext:
				oldN, newN = oldN+1, newN+1
			case OpDelete:
				oldN++
			case OpAdd:
				newN++
			default:
				t.Fatalf("op %q", l.Op)
			}
			if (l.OldNo != nil) != (l.Op != OpAdd) || (l.NewNo != nil) != (l.Op != OpDelete) {
				t.Fatalf("line numbers of %+v", l)
			}
		}
		if oldN > h.OldLines || newN > h.NewLines {
			t.Fatalf("hunk %+v holds %d old, %d new lines", h, oldN, newN)
		}
	}
}

func TestParseRealPatch(t *testing.T) {
	secs, err := parseUnified(bytes.NewReader(realPatch(t)), newBudget((&Options{}).withDefaults()))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) < 10 {
		t.Fatalf("%d sections", len(secs))
	}
	for _, s := range secs {
		checkSection(t, s)
	}
}
