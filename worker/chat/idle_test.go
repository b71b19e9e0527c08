package chat

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/persist"
	"github.com/agentdesk/agentdesk/worker"
)

// TestIdleWorkerCost builds 1,000 restored idle sdk workers, as a start
// with 1,000 sessions does, and checks what each one costs until it is
// used: no goroutine, no queue, and a few KiB of heap. Each used to start
// two goroutines and allocate its queues and a 4,096-entry set of recent
// uuids up front, about 300 KiB.
func TestIdleWorkerCost(t *testing.T) {
	st, err := persist.Open(filepath.Join(t.TempDir(), "agentdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 1000
	conv := "00000000-0000-4000-8000-000000000000"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g0 := runtime.NumGoroutine()
	rts := make([]*Runtime, n)
	for i := range rts {
		rt, err := claudeFactory("")(context.Background(), worker.Env{
			Info:     worker.Info{ID: fmt.Sprintf("w%04d", i), SessionID: "s", Kind: worker.KindSDK, Status: worker.StatusRunning},
			Session:  worker.Session{ID: "s", ClaudeSessionID: &conv},
			Store:    st,
			Restored: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		rts[i] = rt.(*Runtime)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	// The goroutines an earlier test of the package left ending (a
	// stopped runtime's last waits) may start or end meanwhile: a count
	// above g0 must also stay there. A goroutine per worker is 1,000.
	goroutines := runtime.NumGoroutine() - g0
	for deadline := time.Now().Add(waitFor); goroutines > 0 && time.Now().Before(deadline); goroutines = runtime.NumGoroutine() - g0 {
		time.Sleep(10 * time.Millisecond) // polls the count; the deadline only guards
	}
	perWorker := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("per idle worker: %d bytes of heap, %d goroutines in all", perWorker, goroutines)
	for _, r := range rts {
		r.journal.mu.Lock()
		q := r.journal.queue
		r.journal.mu.Unlock()
		if q != nil || r.seen.set != nil || r.seen.ring != nil {
			t.Fatal("an idle worker holds a queue or a set of uuids")
		}
		if err := r.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if goroutines > 0 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d idle workers run %d goroutines, want none; all goroutines:\n%s", n, goroutines, buf[:runtime.Stack(buf, true)])
	}
	if perWorker > 4<<10 {
		t.Errorf("an idle worker holds %d bytes of heap, want at most %d", perWorker, 4<<10)
	}
}

// TestPublisherEndsWhenIdle: the publisher and its queue exist while a
// turn runs and go once the worker is idle again.
func TestPublisherEndsWhenIdle(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for turn := range 2 {
		if err := h.rt.SendUser(context.Background(), "hello"); err != nil {
			t.Fatal(err)
		}
		h.waitInfo(func(i worker.Info) bool {
			return i.Activity != nil && *i.Activity == worker.ActivityIdle && h.rt.journal.published() >= uint64(3*(turn+1))
		})
		deadline := time.Now().Add(waitFor)
		for {
			h.rt.journal.mu.Lock()
			q := h.rt.journal.queue
			h.rt.journal.mu.Unlock()
			if q == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("turn %d: the publisher still holds its queue once idle", turn)
			}
			time.Sleep(time.Millisecond)
		}
	}
	if got, _ := h.store.MessageCount("w1"); got < 6 {
		t.Fatalf("%d messages stored, want at least 6", got)
	}
}

// TestRecentIDs: the set holds the last max uuids, and grows only as they
// come.
func TestRecentIDs(t *testing.T) {
	s := newRecentIDs(3)
	for i := range 5 {
		s.add(fmt.Sprint(i))
	}
	for i, want := range []bool{false, false, true, true, true} {
		if got := s.has(fmt.Sprint(i)); got != want {
			t.Errorf("has(%d) = %v, want %v", i, got, want)
		}
	}
	if len(s.ring) != 3 || len(s.set) != 3 {
		t.Errorf("ring %d, set %d: want 3 each", len(s.ring), len(s.set))
	}
}
