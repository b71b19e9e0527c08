package hub

import (
	"fmt"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func frame(i int) Frame { return Frame{Data: []byte(fmt.Sprint(i))} }

func TestPublishOrderAndCursor(t *testing.T) {
	h := New(7)
	s, cur := h.Subscribe(16)
	defer s.Close()
	if cur != 7 {
		t.Fatalf("cursor %d, want 7", cur)
	}
	for i := 8; i <= 12; i++ {
		h.Publish(uint64(i), frame(i))
	}
	for i := 8; i <= 12; i++ {
		if got := string((<-s.C()).Data); got != fmt.Sprint(i) {
			t.Fatalf("frame %s, want %d", got, i)
		}
	}
	if h.Cursor() != 12 {
		t.Fatalf("cursor %d", h.Cursor())
	}
}

func TestSlowSubscriberIsKickedOthersKeepUp(t *testing.T) {
	h := New(0)
	slow, _ := h.Subscribe(2)
	fast, _ := h.Subscribe(100)
	for i := 1; i <= 50; i++ {
		h.Publish(uint64(i), frame(i))
	}
	<-slow.Done()
	if !slow.Kicked() {
		t.Fatal("slow subscriber not marked kicked")
	}
	if len(fast.C()) != 50 || fast.Kicked() {
		t.Fatalf("fast subscriber has %d frames, kicked=%v", len(fast.C()), fast.Kicked())
	}
	if h.Len() != 1 {
		t.Fatalf("%d subscribers left, want 1", h.Len())
	}
	fast.Close()
	fast.Close() // idempotent
	select {
	case <-fast.Done():
	default:
		t.Fatal("closed subscriber not done")
	}
	if fast.Kicked() {
		t.Fatal("a subscriber that left is not kicked")
	}
}

// TestSeam checks the property replay depends on: a subscriber sees
// exactly the frames after the cursor it was given, while a producer runs.
func TestSeam(t *testing.T) {
	h := New(0)
	const n = 20000
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 1; i <= n; i++ {
			h.Publish(uint64(i), frame(i))
		}
	})
	for range 50 {
		s, cur := h.Subscribe(n)
		next := cur + 1
		for len(s.C()) > 0 || next <= n && h.Cursor() < n {
			select {
			case f := <-s.C():
				if string(f.Data) != fmt.Sprint(next) {
					t.Fatalf("after cursor %d got %s, want %d", cur, f.Data, next)
				}
				next++
			default:
			}
		}
		if next != n+1 {
			t.Fatalf("subscriber at cursor %d stopped at %d of %d", cur, next-1, n)
		}
		s.Close()
	}
	wg.Wait()
}

func TestCloseEndsSubscribers(t *testing.T) {
	h := New(0)
	s, _ := h.Subscribe(0)
	h.Publish(1, frame(1))
	h.Close()
	<-s.Done()
	if s.Kicked() {
		t.Fatal("closing the hub is not a kick")
	}
	if len(s.C()) != 1 {
		t.Fatal("queued frame lost on close")
	}
	late, _ := h.Subscribe(0)
	select {
	case <-late.Done():
	default:
		t.Fatal("subscriber of a closed hub is not done")
	}
}

func BenchmarkPublish10(b *testing.B) {
	h := New(0)
	var subs []*Sub
	for range 10 {
		s, _ := h.Subscribe(b.N + 1)
		subs = append(subs, s)
	}
	f := Frame{Data: make([]byte, 512)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		h.Publish(uint64(i), f)
	}
	b.StopTimer()
	for _, s := range subs {
		s.Close()
	}
}
