package pty_test

import (
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"sync"
	"testing"
	"time"

	creack "github.com/creack/pty"

	"github.com/agentdesk/agentdesk/internal/hub"
	"github.com/agentdesk/agentdesk/internal/pty"
)

var benchBytes = flag.Int64("ptybytes", 100<<20, "bytes of text lines BenchmarkPTYThroughput sends through the PTY")

// benchScript writes *benchBytes of text lines.
func benchScript() []string {
	return []string{"sh", "-c", fmt.Sprintf("yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c %d", *benchBytes)}
}

// BenchmarkPTYThroughput measures output from a PTY child to subscribers
// through Log (stored in bbolt, fanned out by the hub) against reading the
// same output from a PTY directly. Each iteration runs both, back to back,
// so the two rates share the machine's conditions. Run with -benchtime=1x
// (or 3x); shrink the transfer with -args -ptybytes=N.
func BenchmarkPTYThroughput(b *testing.B) {
	var one float64 // the one-subscriber rate
	for _, subs := range []int{1, 10} {
		b.Run(fmt.Sprintf("subs=%d", subs), func(b *testing.B) {
			var raw, log rate
			for range b.N {
				raw.add(rawRead(b))
				log.add(throughLog(b, subs))
			}
			b.ReportMetric(log.mbps(), "MB/s")
			b.ReportMetric(raw.mbps(), "raw-MB/s")
			b.ReportMetric(100*log.mbps()/raw.mbps(), "%raw")
			if subs == 1 {
				one = log.mbps()
			} else if one > 0 {
				b.ReportMetric(100*log.mbps()/one, "%1sub")
			}
		})
	}
}

// rate sums transfers.
type rate struct {
	n int64
	d time.Duration
}

func (r *rate) add(n int64, d time.Duration) { r.n, r.d = r.n+n, r.d+d }
func (r *rate) mbps() float64                { return float64(r.n) / r.d.Seconds() / 1e6 }

// rawRead reads the child's PTY directly and returns the bytes read and
// the time from start to EOF.
func rawRead(b *testing.B) (int64, time.Duration) {
	t0 := time.Now()
	cmd := exec.Command(benchScript()[0], benchScript()[1:]...)
	f, err := creack.Start(cmd)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var n int64
	buf := make([]byte, 32<<10)
	for {
		k, err := f.Read(buf)
		n += int64(k)
		if err != nil {
			break // EIO once the child is gone
		}
	}
	d := time.Since(t0)
	if err := cmd.Wait(); err != nil && !errors.As(err, new(*exec.ExitError)) {
		b.Fatal(err)
	}
	return n, d
}

// throughLog runs the child on a Proc with subs subscribers and returns
// the bytes one subscriber received and the time from start until every
// subscriber had all of them.
func throughLog(b *testing.B, subs int) (int64, time.Duration) {
	s := openStore(b, nil)
	l, err := pty.OpenLog(s, "bench")
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]int64, subs)
	for i := range subs {
		st, err := l.Attach("")
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() { got[i] = countLive(b, st) })
	}
	t0 := time.Now()
	p, err := pty.Start(pty.Options{Command: benchScript(), Log: l})
	if err != nil {
		b.Fatal(err)
	}
	<-p.Done()
	l.Close()
	wg.Wait()
	d := time.Since(t0)
	_ = p.Stop(b.Context())
	for _, n := range got {
		if n != l.End() {
			b.Fatalf("a subscriber got %d bytes of %d", n, l.End())
		}
	}
	return l.End(), d
}

// countLive counts a subscription's output bytes, checking they are
// contiguous, until it ends.
func countLive(b *testing.B, st *hub.Stream) int64 {
	defer st.Close()
	r := newReceived()
	r.discard = true
	if err := st.Replay(r.add); err != nil {
		b.Error(err)
	}
	for {
		f, ok := next(st)
		if !ok {
			break
		}
		if err := r.add(f); err != nil {
			b.Error(err)
			break
		}
	}
	n := r.next - r.first
	if st.Sub.Kicked() {
		b.Errorf("subscriber kicked after %d bytes", n)
	}
	return n
}
