package worker_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/worker"
)

// BenchmarkLookupDuringCreate creates workers (each a bbolt commit) while
// another goroutine looks one up again and again, and reports how many
// lookups had to wait and how long: the time the manager's lock is held
// across a create.
func BenchmarkLookupDuringCreate(b *testing.B) {
	store := openStore(b)
	m := worker.NewManager(worker.Options{Store: store, Factories: map[worker.Kind]worker.Factory{
		worker.KindTerminal: func(context.Context, worker.Env) (worker.Runtime, error) { return idleRuntime{}, nil },
	}})
	ctx := context.Background()
	defer m.Close(ctx)
	s, err := m.CreateSession(ctx, worker.CreateSessionRequest{Cwd: b.TempDir(), Agent: "none"})
	if err != nil {
		b.Fatal(err)
	}
	first, err := m.CreateWorker(ctx, s.ID, worker.WorkerRequest{Kind: worker.KindTerminal})
	if err != nil {
		b.Fatal(err)
	}
	stop := make(chan struct{})
	var waits []time.Duration
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			if _, err := m.Worker(s.ID, first.ID); err != nil {
				b.Error(err)
				return
			}
			waits = append(waits, time.Since(t0))
		}
	})
	b.ResetTimer()
	for range b.N {
		if _, err := m.CreateWorker(ctx, s.ID, worker.WorkerRequest{Kind: worker.KindTerminal}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	// A lookup that took over 200 µs waited for the lock (or for the
	// scheduler, on a loaded machine): their count per create and their
	// median length show how long a create holds the lock.
	var slow []time.Duration
	for _, w := range waits {
		if w > 200*time.Microsecond {
			slow = append(slow, w)
		}
	}
	slices.Sort(slow)
	// A lookup that never waits keeps a core busy: with 2 cores, the
	// creates then share the other one with the store's writer.
	b.ReportMetric(float64(len(waits))/float64(b.N), "lookups/op")
	b.ReportMetric(float64(len(slow))/float64(b.N), "blocked-lookups/op")
	if len(slow) > 0 {
		b.ReportMetric(float64(slow[len(slow)/2].Microseconds()), "blocked-p50-µs")
		b.ReportMetric(float64(slow[len(slow)-1].Microseconds()), "blocked-max-µs")
	}
}
