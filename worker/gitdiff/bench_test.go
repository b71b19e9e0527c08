package gitdiff

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCompute1000Files diffs a work tree with 1,000 modified files of
// 50 lines each (one line changed per file).
func BenchmarkCompute1000Files(b *testing.B) {
	r := newRepo(b, "main")
	body := lines(50)
	for i := range 1000 {
		r.write(fmt.Sprintf("pkg%02d/file%04d.go", i/100, i), body)
	}
	base := r.commit("base")
	for i := range 1000 {
		r.write(fmt.Sprintf("pkg%02d/file%04d.go", i/100, i), strings.Replace(body, "line 25\n", "changed\n", 1))
	}
	b.ReportAllocs()
	for b.Loop() {
		d, err := Compute(b.Context(), r.dir, base, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Files) != 1000 || d.Files[999].Additions != 1 || len(d.Files[999].Hunks) != 1 {
			b.Fatalf("unexpected diff: %d files", len(d.Files))
		}
	}
}
