//go:build unix

package persist

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// TestFailedCommit makes the disk refuse to grow the file (RLIMIT_FSIZE, the
// same failure a full disk gives bbolt), then checks that every op of the
// failed batch gets the error, nothing of it is kept, and the store works
// afterwards.
func TestFailedCommit(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	must(t, s.Records().PutSession("s", []byte("v1")))
	mustWait(t, s.AppendMessages("w", msgs(1, 2)))
	mustWait(t, s.AppendOutput("w", 0, []byte("ab")))

	fi, err := os.Stat(path)
	must(t, err)
	restore := limitFileSize(t, fi.Size())
	release := hold(t, s)
	batch := []<-chan error{
		s.AppendMessages("w", msgs(3, 3)),
		s.AppendOutput("w", 2, make([]byte, 4*int(fi.Size()))), // needs a bigger file
		s.AppendOutput("w2", 0, []byte("small")),
	}
	put := make(chan error, 1)
	go func() { put <- s.Records().PutSession("s", []byte("v2")) }()
	mustWait(t, pollQueued(t, s, len(batch)+1))
	release()
	for i, c := range append(batch, put) {
		if err := wait(t, c); err == nil {
			t.Errorf("op %d of the failed batch reported success", i)
		} else if i == 0 {
			t.Logf("commit error: %v", err)
		}
	}
	restore()

	checkUnchanged := func() {
		t.Helper()
		if last, _ := s.LastSeq("w"); last != 2 {
			t.Errorf("last seq = %d, want 2", last)
		}
		if _, end, _ := s.OutputRange("w"); end != 2 {
			t.Errorf("output end = %d, want 2", end)
		}
		if _, end, _ := s.OutputRange("w2"); end != 0 {
			t.Errorf("w2 output end = %d, want 0", end)
		}
		if got, _ := s.Records().Sessions(); string(got[0].Value) != "v1" {
			t.Errorf("session = %q, want v1", got[0].Value)
		}
	}
	checkUnchanged()

	// The same writes succeed now, and everything survives a reopen.
	mustWait(t, s.AppendMessages("w", msgs(3, 3)))
	mustWait(t, s.AppendOutput("w", 2, []byte("cd")))
	must(t, s.Close())
	s = openStore(t, path, nil)
	if got, _ := s.MessagesAfter("w", 0, 0); len(got) != 3 {
		t.Errorf("messages after reopen: %d", len(got))
	}
	if data, _, _ := s.ReadOutput("w", 0, 10); string(data) != "abcd" {
		t.Errorf("output after reopen: %q", data)
	}
}

// limitFileSize caps the size of files this process writes. The kernel then
// fails writes and truncates beyond it with EFBIG; SIGXFSZ, which would kill
// the process, is ignored meanwhile.
func limitFileSize(t *testing.T, size int64) (restore func()) {
	t.Helper()
	var old syscall.Rlimit
	must(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old))
	signal.Ignore(syscall.SIGXFSZ)
	must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: uint64(size), Max: old.Max}))
	done := false
	restore = func() {
		if done {
			return
		}
		done = true
		must(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old))
		signal.Reset(syscall.SIGXFSZ)
	}
	t.Cleanup(restore)
	return restore
}

// TestFailedCommitsLeaveNoGap fails three commits of a caller that numbers
// on regardless (as the sdk worker did), then gives the disk room again:
// the log refuses the number after the hole, takes the failed ones again,
// and stays gapless across a reopen.
func TestFailedCommitsLeaveNoGap(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	mustWait(t, s.AppendMessages("w", msgs(1, 2)))
	fi, err := os.Stat(path)
	must(t, err)
	restore := limitFileSize(t, fi.Size())
	big := make([]byte, 4*int(fi.Size())) // needs a bigger file
	for seq := uint64(3); seq <= 5; seq++ {
		if err := wait(t, s.AppendMessages("w", []Message{{Seq: seq, UUID: fmt.Sprint("big-", seq), Data: big}})); err == nil {
			t.Fatalf("seq %d committed on a full disk", seq)
		}
	}
	restore()
	if err := wait(t, s.AppendMessages("w", msgs(6, 6))); !errors.Is(err, ErrSeq) {
		t.Fatalf("append after the failed ones: %v, want ErrSeq", err)
	}
	mustWait(t, s.AppendMessages("w", msgs(3, 4)))
	must(t, s.Close())
	s = openStore(t, path, nil)
	got, err := s.MessagesAfter("w", 0, 0)
	must(t, err)
	if fmt.Sprint(seqs(got)) != "[1 2 3 4]" {
		t.Fatalf("log after reopen: %v, want [1 2 3 4]", seqs(got))
	}
}

// TestHold: writes queued while the writer is held commit only after
// release.
func TestHold(t *testing.T) {
	s := newStore(t)
	entered, release := s.Hold()
	<-entered
	c := s.AppendMessages("w", msgs(1, 1))
	mustWait(t, pollQueued(t, s, 1))
	if n, _ := s.MessageCount("w"); n != 0 {
		t.Fatalf("%d messages committed while held", n)
	}
	select {
	case err := <-c:
		t.Fatalf("append reported %v while held", err)
	default:
	}
	release()
	release()
	mustWait(t, c)
	must(t, s.Close())
	entered, release = s.Hold() // a closed store: nothing to hold
	<-entered
	release()
}
