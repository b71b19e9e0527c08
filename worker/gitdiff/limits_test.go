package gitdiff

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestLargeFileTruncated(t *testing.T) {
	r := newRepo(t, "main")
	r.write("big.txt", lines(6000))
	r.write("wide.txt", "short\n")
	r.write("small.txt", "a\n")
	base := r.commit("base")
	r.write("big.txt", strings.ReplaceAll(lines(6000), "line", "LINE"))       // 12,000 diff lines
	r.write("wide.txt", strings.Repeat("x", 300<<10)+"\n")                    // one 300 KiB line
	r.write("big-untracked.txt", lines(7000))                                 // over MaxFileLines
	r.write("huge-untracked.txt", strings.Repeat("y", 100)+"\n"+lines(30000)) // over MaxFileBytes
	r.write("small.txt", "b\n")

	d, err := Compute(t.Context(), r.dir, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path      string
		truncated bool
		add, del  int
	}{
		{"big-untracked.txt", true, 7000, 0},
		{"big.txt", true, 6000, 6000},
		{"huge-untracked.txt", true, 30001, 0},
		{"small.txt", false, 1, 1},
		{"wide.txt", true, 1, 1},
	}
	if len(d.Files) != len(tests) {
		t.Fatalf("files = %v", paths(d.Files))
	}
	for i, tt := range tests {
		f := d.Files[i]
		if f.Path != tt.path || f.Truncated != tt.truncated || f.Additions != tt.add || f.Deletions != tt.del {
			t.Errorf("file %d = %s truncated %v +%d -%d; want %+v", i, f.Path, f.Truncated, f.Additions, f.Deletions, tt)
		}
		if f.Truncated && (f.Hunks == nil || len(f.Hunks) != 0) {
			t.Errorf("%s: truncated file has hunks %v", f.Path, f.Hunks)
		}
	}

	// ComputeFile has no limit.
	for _, tt := range tests {
		f, err := ComputeFile(t.Context(), r.dir, base, tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(hunkLines(*f)); f.Truncated || n != tt.add+tt.del {
			t.Errorf("ComputeFile(%s): truncated %v, %d lines, want %d", tt.path, f.Truncated, n, tt.add+tt.del)
		}
	}
}

func TestOptionsLimits(t *testing.T) {
	r := newRepo(t, "main")
	for i := range 6 {
		r.write(fmt.Sprintf("f%d.txt", i), "old\n")
	}
	base := r.commit("base")
	for i := range 6 {
		r.write(fmt.Sprintf("f%d.txt", i), "new\n")
	}
	r.write("u.txt", "untracked\n")
	tests := []struct {
		name string
		opts Options
		full int // files with hunks
	}{
		{"defaults", Options{}, 7},
		{"max files", Options{MaxFiles: 2}, 2},
		{"max file bytes", Options{MaxFileBytes: 5}, 0},
		{"max file lines", Options{MaxFileLines: 1}, 1}, // the untracked one-liner
		// Two ~115-byte patches fit, then only the 10-byte untracked file.
		{"max total bytes", Options{MaxTotalBytes: 250}, 3},
		{"unlimited", Options{MaxFiles: -1, MaxFileBytes: -1, MaxFileLines: -1, MaxTotalBytes: -1}, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Compute(t.Context(), r.dir, base, &tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			full := 0
			for _, f := range d.Files {
				if f.Truncated == (len(f.Hunks) > 0) {
					t.Fatalf("%s: truncated %v with %d hunks", f.Path, f.Truncated, len(f.Hunks))
				}
				if !f.Truncated {
					full++
				}
				if f.Additions != 1 {
					t.Fatalf("%s: additions %d", f.Path, f.Additions)
				}
			}
			if len(d.Files) != 7 || full != tt.full {
				t.Fatalf("%d files, %d with hunks; want 7, %d", len(d.Files), full, tt.full)
			}
		})
	}
}

func TestComputeFile(t *testing.T) {
	r := newRepo(t, "main")
	r.write("ren.txt", lines(20))
	r.write("same.txt", "same\n")
	base := r.commit("base")
	r.git("mv", "ren.txt", "renamed.txt")
	r.write("renamed.txt", lines(21))
	r.write("new.txt", "n\n")
	r.write("ignored/x.txt", "i\n")
	r.write(".gitignore", "ignored/\n")

	f, err := ComputeFile(t.Context(), r.dir, base, "renamed.txt")
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != StatusRenamed || f.OldPath != "ren.txt" || f.Additions != 1 || len(f.Hunks) != 1 {
		t.Fatalf("renamed = %+v", f)
	}
	f, err = ComputeFile(t.Context(), r.dir, base, "new.txt")
	if err != nil || f.Status != StatusUntracked || f.Additions != 1 {
		t.Fatalf("untracked = %+v, %v", f, err)
	}
	for _, p := range []string{"same.txt", "ren.txt", "ignored/x.txt", "nope.txt"} {
		if _, err := ComputeFile(t.Context(), r.dir, base, p); !errors.Is(err, ErrUnchanged) {
			t.Errorf("ComputeFile(%q) err = %v, want ErrUnchanged", p, err)
		}
	}
}

func TestUntrackedSpecialFiles(t *testing.T) {
	r := newRepo(t, "main")
	base := r.commit("base")
	r.write("empty.txt", "")
	r.write("bin.dat", "a\x00b\n")
	nested := newRepo(t, "main")
	nested.write("inner.txt", "x\n")
	nested.commit("nested")
	runGit(t, r.dir, "clone", "-q", nested.dir, "sub")
	d, err := Compute(t.Context(), r.dir, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(paths(d.Files))
	if got != "[bin.dat empty.txt sub/]" {
		t.Fatalf("paths = %s", got)
	}
	if f := d.Files[0]; !f.Binary || f.Additions != 0 || len(f.Hunks) != 0 {
		t.Errorf("binary = %+v", f)
	}
	if f := d.Files[1]; f.Binary || f.Additions != 0 || len(f.Hunks) != 0 {
		t.Errorf("empty = %+v", f)
	}
}
