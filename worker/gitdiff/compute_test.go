package gitdiff

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// weird is a path that git must quote in patch headers.
const weird = "dir/spa ce \"q\"\tü.txt"

// changeKindsRepo builds a repository with one change of every kind
// against the returned base.
func changeKindsRepo(t testing.TB) (*testRepo, string) {
	r := newRepo(t, "main")
	r.write("modified.txt", "a\nb\nc\n")
	r.write("staged-mod.txt", "one\n")
	r.write("deleted.txt", "x\ny\n")
	r.write("git-rm.txt", "gone\n")
	r.write("ren.txt", lines(20))
	r.write("pure-ren.txt", lines(5))
	r.write("b.bin", "bin\x00ary")
	r.write("mode.sh", "#!/bin/sh\n")
	r.write("dash.txt", "-- x\n++ y\nkeep\n")
	r.write("link.txt", "was a file\n")
	r.write("later.txt", "v1\n")
	r.write(weird, "w\n")
	r.write(".gitignore", "*.log\n")
	base := r.commit("base")

	r.write("later.txt", "v2\n")
	r.commit("committed since base")

	r.write("modified.txt", "a\nB\nc\nd\n")
	r.write("staged-mod.txt", "one\ntwo\n")
	r.git("add", "staged-mod.txt")
	r.write("staged-new.txt", "new\n")
	r.git("add", "staged-new.txt")
	r.write("untracked.txt", "one\ntwo")
	r.write("ignored.log", "noise\n")
	r.remove("deleted.txt")
	r.git("rm", "-q", "git-rm.txt")
	r.git("mv", "ren.txt", "renamed.txt")
	r.write("renamed.txt", lines(21))
	if err := os.Mkdir(filepath.Join(r.dir, "moved"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("mv", "pure-ren.txt", "moved/pure.txt")
	r.write("b.bin", "bin\x00ary2")
	if err := os.Chmod(filepath.Join(r.dir, "mode.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("dash.txt", "keep\n")
	r.remove("link.txt")
	if err := os.Symlink("target", filepath.Join(r.dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	r.write(weird, "w\nmore\n")
	return r, base
}

func TestComputeChangeKinds(t *testing.T) {
	r, base := changeKindsRepo(t)
	d, err := Compute(t.Context(), r.dir, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Base != base || d.Head == nil || *d.Head != r.git("rev-parse", "HEAD") {
		t.Fatalf("base %s head %v", d.Base, d.Head)
	}
	tests := []struct {
		path, status, oldPath string
		binary                bool
		add, del              int
		oldMode, newMode      string
		lines                 []string // op+text of every hunk line
	}{
		{path: ".gitignore", status: "-"},
		{path: "b.bin", status: StatusModified, binary: true},
		{path: "dash.txt", status: StatusModified, del: 2, lines: []string{"--- x", "-++ y", " keep"}},
		{path: "deleted.txt", status: StatusDeleted, del: 2, lines: []string{"-x", "-y"}},
		{path: "git-rm.txt", status: StatusDeleted, del: 1, lines: []string{"-gone"}},
		{path: "ignored.log", status: "-"},
		{path: "later.txt", status: StatusModified, add: 1, del: 1, lines: []string{"-v1", "+v2"}},
		{path: "link.txt", status: StatusModified, add: 1, del: 1, oldMode: "100644", newMode: "120000",
			lines: []string{"-was a file", "+target"}},
		{path: "mode.sh", status: StatusModified, oldMode: "100644", newMode: "100755"},
		{path: "modified.txt", status: StatusModified, add: 2, del: 1, lines: []string{" a", "-b", "+B", " c", "+d"}},
		{path: "moved/pure.txt", status: StatusRenamed, oldPath: "pure-ren.txt"},
		{path: "renamed.txt", status: StatusRenamed, oldPath: "ren.txt", add: 1,
			lines: []string{" line 18", " line 19", " line 20", "+line 21"}},
		{path: "staged-mod.txt", status: StatusModified, add: 1, lines: []string{" one", "+two"}},
		{path: "staged-new.txt", status: StatusAdded, add: 1, lines: []string{"+new"}},
		{path: "untracked.txt", status: StatusUntracked, add: 2, lines: []string{"+one", "+two"}},
		{path: weird, status: StatusModified, add: 1, lines: []string{" w", "+more"}},
	}
	byPath := map[string]File{}
	for _, f := range d.Files {
		byPath[f.Path] = f
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f, ok := byPath[tt.path]
			if tt.status == "-" {
				if ok {
					t.Fatalf("unexpected file %+v", f)
				}
				return
			}
			if !ok {
				t.Fatalf("missing; files: %v", paths(d.Files))
			}
			got := []any{f.Status, f.OldPath, f.Binary, f.Additions, f.Deletions, f.OldMode, f.NewMode, f.Truncated}
			want := []any{tt.status, tt.oldPath, tt.binary, tt.add, tt.del, tt.oldMode, tt.newMode, false}
			if !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if gl := hunkLines(f); !slices.Equal(gl, tt.lines) {
				t.Fatalf("lines %q, want %q", gl, tt.lines)
			}
		})
	}
	if !slices.IsSortedFunc(d.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) }) {
		t.Fatalf("files not sorted: %v", paths(d.Files))
	}
}

func paths(files []File) []string {
	var p []string
	for _, f := range files {
		p = append(p, f.Path)
	}
	return p
}

func hunkLines(f File) []string {
	var out []string
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			out = append(out, l.Op+l.Text)
		}
	}
	return out
}

func TestComputeLineNumbers(t *testing.T) {
	r := newRepo(t, "main")
	r.write("f.txt", lines(10))
	base := r.commit("base")
	r.write("f.txt", strings.Replace(lines(10), "line 5\n", "five\nfive and a half\n", 1)+"tail")
	f, err := ComputeFile(t.Context(), r.dir, base, "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Hunks) != 1 {
		t.Fatalf("hunks = %+v", f.Hunks)
	}
	h := f.Hunks[0]
	if h.OldStart != 2 || h.OldLines != 9 || h.NewStart != 2 || h.NewLines != 11 {
		t.Fatalf("hunk range %+v", h)
	}
	type num struct{ old, new int } // 0: absent
	want := map[string]num{
		" line 2": {2, 2}, "-line 5": {5, 0}, "+five": {0, 5}, "+five and a half": {0, 6},
		" line 6": {6, 7}, " line 10": {10, 11}, "+tail": {0, 12},
	}
	for _, l := range h.Lines {
		w, ok := want[l.Op+l.Text]
		if !ok {
			continue
		}
		if deref(l.OldNo) != w.old || deref(l.NewNo) != w.new {
			t.Errorf("%q: old %d new %d, want %v", l.Op+l.Text, deref(l.OldNo), deref(l.NewNo), w)
		}
	}
	last := h.Lines[len(h.Lines)-1]
	if last.Text != "tail" || !last.NoEOL {
		t.Fatalf("last line %+v, want tail without EOL", last)
	}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func TestComputeFromSubdirCoversTree(t *testing.T) {
	r := newRepo(t, "main")
	r.write("top.txt", "a\n")
	r.write("sub/inner.txt", "b\n")
	base := r.commit("base")
	r.write("top.txt", "A\n")
	r.write("sub/inner.txt", "B\n")
	d, err := Compute(t.Context(), filepath.Join(r.dir, "sub"), base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(d.Files); !slices.Equal(got, []string{"sub/inner.txt", "top.txt"}) {
		t.Fatalf("paths = %v", got)
	}
}

func TestComputeNoChanges(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a", "a\n")
	base := r.commit("base")
	// A touched but unchanged file must not show (stat-only change).
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(r.dir, "a"), later, later); err != nil {
		t.Fatal(err)
	}
	d, err := Compute(t.Context(), r.dir, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Files == nil || len(d.Files) != 0 {
		t.Fatalf("files = %#v, want empty non-nil", d.Files)
	}
}

func TestComputeNotRepo(t *testing.T) {
	sha := strings.Repeat("a", 40)
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "missing"), ""} {
		if _, err := Compute(t.Context(), dir, sha, nil); !errors.Is(err, ErrNotRepo) {
			t.Errorf("Compute(%q) err = %v, want ErrNotRepo", dir, err)
		}
		if _, err := DefaultBase(t.Context(), dir); !errors.Is(err, ErrNotRepo) {
			t.Errorf("DefaultBase(%q) err = %v, want ErrNotRepo", dir, err)
		}
		if _, err := ResolveBase(t.Context(), dir, "HEAD"); !errors.Is(err, ErrNotRepo) {
			t.Errorf("ResolveBase(%q) err = %v, want ErrNotRepo", dir, err)
		}
	}
}

func TestComputeJSONShape(t *testing.T) {
	r := newRepo(t, "main")
	r.write("a.txt", "a\n")
	r.write("b.bin", "\x00")
	r.write("untracked", "u\n")
	r.git("add", "a.txt", "b.bin")
	base, err := DefaultBase(t.Context(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Compute(t.Context(), r.dir, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"base":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","head":null,"files":[` +
		`{"path":"a.txt","status":"added","binary":false,"additions":1,"deletions":0,"hunks":[` +
		`{"oldStart":0,"oldLines":0,"newStart":1,"newLines":1,"header":"","lines":[{"op":"+","text":"a","newNo":1}]}]},` +
		`{"path":"b.bin","status":"added","binary":true,"additions":0,"deletions":0,"hunks":[]},` +
		`{"path":"untracked","status":"untracked","binary":false,"additions":1,"deletions":0,"hunks":[` +
		`{"oldStart":0,"oldLines":0,"newStart":1,"newLines":1,"header":"","lines":[{"op":"+","text":"u","newNo":1}]}]}]}`
	if string(data) != want {
		t.Fatalf("json\n got %s\nwant %s", data, want)
	}
}
