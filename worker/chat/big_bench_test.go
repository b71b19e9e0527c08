package chat

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// BenchmarkBigMessages runs one turn of the fake CLI that prints 12
// messages of 30 MB (alternating a tool result and an assistant text)
// through the whole hot path: the CLI's stdout reader, the pipeline
// (render, commit to a real fsync'ed bbolt file) and a subscriber, then
// replays them to a new attachment. It reports the heap allocated per
// message byte and the peak of HeapInuse sampled at every frame.
// BIG=<n>x<bytes> changes the sizes, BIG_KIND the kind (tool, text,
// mixed).
func BenchmarkBigMessages(b *testing.B) {
	spec := os.Getenv("BIG")
	if spec == "" {
		spec = "12x30000000"
	}
	kind := os.Getenv("BIG_KIND")
	for b.Loop() {
		benchBig(b, spec, kind)
	}
}

func benchBig(b *testing.B, spec, kind string) {
	st, err := persist.Open(filepath.Join(b.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	conv := "00000000-0000-4000-8000-000000000000"
	rt, err := claudeFactory(fakeBin)(context.Background(), worker.Env{
		Info:    worker.Info{ID: "w1", SessionID: "s1", Kind: worker.KindSDK},
		Session: worker.Session{ID: "s1", Cwd: b.TempDir(), ClaudeSessionID: &conv},
		Store:   st,
		Config: worker.Config{ClaudePath: fakeBin,
			ChildEnv: append(os.Environ(), "FAKECLAUDE_BIG="+spec, "FAKECLAUDE_BIG_KIND="+kind)},
	})
	if err != nil {
		b.Fatal(err)
	}
	r := rt.(*Runtime)
	defer r.Stop(context.Background())
	sub, _ := r.journal.hub.Subscribe(0)
	defer sub.Close()

	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	if err := r.SendUser(context.Background(), "big"); err != nil {
		b.Fatal(err)
	}
	peak, total := uint64(0), int64(0)
	for done := false; !done; {
		f, err := sub.Recv(context.Background())
		if err != nil {
			b.Fatalf("subscriber: %v (kicked %v)", err, sub.Kicked())
		}
		total += int64(len(f.Data))
		done = bytes.Contains(f.Data, []byte(`"subtype":"success"`)) && len(f.Data) < 4096
		peak = max(peak, heapInuse())
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(total), "alloc/byte")

	start := time.Now()
	runtime.ReadMemStats(&ms0)
	s, err := r.Attach(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	peak, total = 0, 0
	err = s.Replay(func(f hub.Frame) error {
		total += int64(len(f.Data))
		peak = max(peak, heapInuse())
		return nil
	})
	s.Close()
	if err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(peak)/(1<<20), "replay-peak-heap-MiB")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(total), "replay-alloc/byte")
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "replay-ms")
	_ = strconv.Itoa
}

func heapInuse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
