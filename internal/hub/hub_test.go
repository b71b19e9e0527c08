package hub

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

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
		if got := string(recv(t, s).Data); got != fmt.Sprint(i) {
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
	if fast.Len() != 50 || fast.Kicked() {
		t.Fatalf("fast subscriber has %d frames, kicked=%v", fast.Len(), fast.Kicked())
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
		var batch []Frame
		for next <= n {
			select {
			case <-s.Ready():
			case <-time.After(2 * time.Minute):
				t.Fatalf("subscriber at cursor %d waits for %d", cur, next)
			}
			batch = s.Take(batch)
			for _, f := range batch {
				if string(f.Data) != fmt.Sprint(next) {
					t.Fatalf("after cursor %d got %s, want %d", cur, f.Data, next)
				}
				next++
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
	if got := recv(t, s); string(got.Data) != "1" {
		t.Fatalf("queued frame lost on close: got %q", got.Data)
	}
	if _, err := s.Recv(context.Background()); err != ErrDone {
		t.Fatalf("Recv after the last frame: %v, want ErrDone", err)
	}
	late, _ := h.Subscribe(0)
	select {
	case <-late.Done():
	default:
		t.Fatal("subscriber of a closed hub is not done")
	}
}

// BenchmarkPublish10 publishes to 10 subscribers whose readers take their
// queues every 256 frames; ns/op is per frame, taking included.
func BenchmarkPublish10(b *testing.B) {
	h := New(0)
	var subs []*Sub
	for range 10 {
		s, _ := h.Subscribe(0)
		subs = append(subs, s)
	}
	batches := make([][]Frame, len(subs))
	f := Frame{Data: make([]byte, 512)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		h.Publish(uint64(i), f)
		if i%256 == 255 {
			for j, s := range subs {
				batches[j] = s.Take(batches[j])
			}
		}
	}
	b.StopTimer()
	for _, s := range subs {
		if s.Kicked() {
			b.Fatal("a subscriber was kicked")
		}
		s.Close()
	}
}

// TestReadyOncePerBatch checks that a reader wakes once for a burst and
// gets the whole burst, in order, from one Take.
func TestReadyOncePerBatch(t *testing.T) {
	h := New(0)
	s, _ := h.Subscribe(0)
	defer s.Close()
	for i := 1; i <= 100; i++ {
		h.Publish(uint64(i), frame(i))
	}
	<-s.Ready()
	select {
	case <-s.Ready():
		t.Fatal("a burst signalled Ready more than once")
	default:
	}
	batch := s.Take(nil)
	if len(batch) != 100 || string(batch[0].Data) != "1" || string(batch[99].Data) != "100" {
		t.Fatalf("Take returned %d frames", len(batch))
	}
	if again := s.Take(batch); len(again) != 0 {
		t.Fatalf("second Take returned %d frames, want none", len(again))
	}
	h.Publish(101, frame(101))
	<-s.Ready()
	if got := s.Take(nil); len(got) != 1 || string(got[0].Data) != "101" {
		t.Fatalf("after a Take, got %v", got)
	}
}

// TestByteBoundKicks checks that a reader holding too many bytes is kicked
// even when its frame count is within the queue length.
func TestByteBoundKicks(t *testing.T) {
	h := New(0)
	s, _ := h.Subscribe(0)
	big := Frame{Binary: true, Data: make([]byte, MaxQueueBytes/4+1)}
	for i := 1; i <= 5; i++ {
		h.Publish(uint64(i), big)
	}
	<-s.Done()
	// The fourth frame went into a queue still under the bound.
	if !s.Kicked() || s.Len() != 4 {
		t.Fatalf("kicked=%v with %d frames queued, want kicked with 4", s.Kicked(), s.Len())
	}
}

// TestHugeFrameReachesReader checks that a frame larger than the byte
// bound reaches a subscriber that keeps up (it used to kick every
// subscriber of the worker), and that one already behind is kicked.
func TestHugeFrameReachesReader(t *testing.T) {
	h := New(0)
	fast, _ := h.Subscribe(0)
	slow, _ := h.Subscribe(0)
	h.Publish(1, Frame{Data: make([]byte, MaxQueueBytes)})
	if got := recv(t, fast); len(got.Data) != MaxQueueBytes {
		t.Fatalf("got %d bytes", len(got.Data))
	}
	huge := Frame{Data: make([]byte, 3*MaxQueueBytes)}
	h.Publish(2, huge)
	if got := recv(t, fast); len(got.Data) != len(huge.Data) {
		t.Fatalf("got %d bytes, want %d", len(got.Data), len(huge.Data))
	}
	select {
	case <-fast.Done():
		t.Fatal("a subscriber that kept up was kicked")
	default:
	}
	<-slow.Done()
	if !slow.Kicked() || slow.Len() != 1 {
		t.Fatalf("slow: kicked=%v with %d frames, want kicked with 1", slow.Kicked(), slow.Len())
	}
}

func recv(t *testing.T, s *Sub) Frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f, err := s.Recv(ctx)
	if err != nil {
		t.Fatalf("recv: %v", err)
	}
	return f
}

// Frames published under Hold wake no subscriber until Release, which
// wakes each one with frames waiting once; they are all taken in order.
func TestHoldWakesOncePerBatch(t *testing.T) {
	h := New(0)
	s, _ := h.Subscribe(0)
	idle, _ := h.Subscribe(0)
	h.Hold()
	for i := range 3 {
		h.Publish(uint64(i+1), Frame{Data: []byte{byte('a' + i)}})
	}
	select {
	case <-s.Ready():
		t.Fatal("woken during Hold")
	default:
	}
	_ = idle.Take(nil) // emptied during the Hold: Release must not wake it
	h.Release()
	select {
	case <-s.Ready():
	default:
		t.Fatal("not woken at Release")
	}
	select {
	case <-idle.Ready():
		t.Fatal("a subscriber with nothing waiting was woken")
	default:
	}
	if got := s.Take(nil); len(got) != 3 || string(got[0].Data)+string(got[1].Data)+string(got[2].Data) != "abc" {
		t.Fatalf("took %d frames: %v", len(got), got)
	}
	h.Publish(4, Frame{Data: []byte("d")}) // after Release, a frame wakes at once again
	select {
	case <-s.Ready():
	default:
		t.Fatal("not woken after Release")
	}
}
