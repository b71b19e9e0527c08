package agentproc

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestTail(t *testing.T) {
	var r Tail
	r.Write([]byte("start\n"))
	chunk := strings.Repeat("y", 1000)
	for range 200 { // 200 KB, over 3 times the cap
		r.Write([]byte(chunk))
	}
	r.Write([]byte("\nthe end"))
	s := r.String()
	if len(s) != TailCap || !strings.HasSuffix(s, "\nthe end") || strings.Contains(s, "start") {
		t.Fatalf("len %d, suffix %q", len(s), s[len(s)-10:])
	}
}

// TestPipes: what is written to the child's stdin end reaches ours, and
// ours of stdout reads what the child writes; a reader stuck on a pipe
// nobody closes is forced out once the grace is spent.
func TestPipes(t *testing.T) {
	child, ours, err := OpenPipes()
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(append(child[:], ours[:]...)...)
	if _, err := ours[0].Write([]byte("in")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2)
	if _, err := io.ReadFull(child[0], buf); err != nil || string(buf) != "in" {
		t.Fatalf("stdin: %q, %v", buf, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = ours[1].Read(buf) // no writer writes: only the deadline ends it
	}()
	UnblockReaders(0, Reader{Done: done, Pipe: ours[1]})
	<-done
}

func TestWaitExit(t *testing.T) {
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if WaitExit(ctx, done, time.Hour) {
		t.Fatal("a process still running counted as exited")
	}
	close(done)
	if !WaitExit(context.Background(), done, time.Hour) {
		t.Fatal("an exited process counted as running")
	}
}
