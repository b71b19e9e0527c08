package claudesessions

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkListSessions lists 1,000 session files of 2 MiB each (2 GB in
// all; their middles are holes, as a listing never reads them) in one
// project, and reports the extra memory the listing needed.
func BenchmarkListSessions(b *testing.B) {
	config := b.TempDir()
	filler := strings.Repeat("x", 900)
	t0 := time.Now().Add(-time.Hour)
	for i := range 1000 {
		lines := sessionLines(b, "/work/bench", fmt.Sprintf("prompt %d %s", i, filler), "next")
		p := writeSession(b, config, "-work-bench", fmt.Sprintf("s%04d", i), t0.Add(time.Duration(i)*time.Second), lines...)
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			b.Fatal(err)
		}
		tail := "\n" + mustJSON(b, map[string]any{"type": "user", "cwd": "/work/bench", "message": map[string]any{"content": filler},
			"turnPosition": map[string]int{"promptIndex": 9}}) + "\n"
		if _, err := f.WriteAt([]byte(tail), 2<<20-int64(len(tail))); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		ss, err := Sessions(config, "/work/bench")
		if err != nil || len(ss) != 1000 || ss[0].Messages != 10 {
			b.Fatalf("listing: %d sessions, %v", len(ss), err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.Sys-before.Sys)/(1<<20), "MiB-sys-growth")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MiB-alloc/op")
}
