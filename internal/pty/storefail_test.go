package pty_test

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/internal/pty"
	"github.com/agentdesk/agentdesk/persist"
)

// fullStore is a store on a disk that is full while full is set: every
// write fails as a failed commit does (nothing of it kept), the barrier
// included, which rides in a failing commit. A refused append signals
// asked, and its result comes once gate is closed, like a commit that
// takes a while to fail.
type fullStore struct {
	*persist.Store
	full  atomic.Bool
	asked chan struct{} // buffered 1
	gate  chan struct{}
	wg    sync.WaitGroup
}

var errFull = fmt.Errorf("commit: write agentdesk.db: %w", syscall.ENOSPC)

func failed() <-chan error {
	ch := make(chan error, 1)
	ch <- errFull
	return ch
}

func (f *fullStore) AppendOutput(id string, off int64, data []byte) <-chan error {
	if f.full.Load() {
		select {
		case f.asked <- struct{}{}:
		default:
		}
		ch := make(chan error, 1)
		f.wg.Go(func() {
			<-f.gate
			ch <- errFull
		})
		return ch
	}
	return f.Store.AppendOutput(id, off, data)
}

func (f *fullStore) ReserveOutput(id string, upTo int64) <-chan error {
	if f.full.Load() {
		return failed()
	}
	return f.Store.ReserveOutput(id, upTo)
}

func (f *fullStore) Barrier() <-chan error {
	if f.full.Load() {
		return failed()
	}
	return f.Store.Barrier()
}

// TestStorageFailureIsReportedAndRecovered: output the disk refuses is
// reported through Failed and Err without any more output to trigger it;
// tabs can still attach and replay what is stored, across the hole; and
// once the disk has room, output is stored again, even past the
// reservation that was refused.
func TestStorageFailureIsReportedAndRecovered(t *testing.T) {
	s := openStore(t, nil)
	fs := &fullStore{Store: s, asked: make(chan struct{}, 1), gate: make(chan struct{})}
	l, err := pty.OpenLog(fs, "w1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	gate := sync.OnceFunc(func() { close(fs.gate) })
	defer fs.wg.Wait()
	defer gate()
	writeChunks(t, l, []byte("before "), 100)
	if err := l.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	fs.full.Store(true)
	writeChunks(t, l, []byte("lost"), 100)
	select { // the Log hands the bytes over by itself, after flushDelay
	case <-fs.asked:
	case <-time.After(waitFor):
		t.Fatal("the output was not handed to the store")
	}
	gate() // the commit fails after the last write: nothing else will reap it
	select {
	case <-l.Failed():
	case <-time.After(waitFor):
		t.Fatal("a refused append was not reported")
	}
	if err := l.Err(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Err = %v, want ENOSPC", err)
	}
	// More than a reservation step: the Log publishes past what the store
	// has reserved.
	writeChunks(t, l, bytes.Repeat([]byte("L"), 3<<20), 32<<10)
	lostEnd := l.End()
	during := replay(t, attach(t, l, ""))
	if during.out.String() != "before " || during.holes != 1 || during.histEnd != lostEnd {
		t.Fatalf("replay on a full disk: %q, %d holes, history-end %d (end %d)", during.out.String(), during.holes, during.histEnd, lostEnd)
	}

	fs.full.Store(false)
	writeChunks(t, l, []byte("after"), 100)
	if err := l.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	r := replay(t, attach(t, l, ""))
	resumed, _ := r.ctrl[0]["offset"].(float64)
	if r.out.String() != "before after" || r.holes != 1 || int64(resumed) < lostEnd {
		t.Fatalf("replay after the disk has room: %q, frames %v (lost up to %d)", r.out.String(), r.ctrl, lostEnd)
	}
}
