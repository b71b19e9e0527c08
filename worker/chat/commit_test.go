//go:build linux

package chat

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/persist"
)

// TestInputAnsweredAfterCommit holds the store's writer while a user
// message is sent: SendUser must not return, the CLI must not start and
// the tabs must not see the message until the commit is released; once it
// returns, the message is on disk (a reopened store reads it).
func TestInputAnsweredAfterCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentdesk.db")
	st, err := persist.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOptions{store: st})
	a := attach(t, h.rt, "")
	entered, release := st.Hold()
	<-entered
	defer release()
	done := make(chan error, 1)
	go func() { done <- h.rt.SendUser(t.Context(), "held") }()

	// Wait until SendUser either returned or blocks on the commit: the
	// goroutine's stack then shows produceCommitted waiting.
	deadline := time.Now().Add(waitFor)
	for !waitingInCommit() {
		select {
		case err := <-done:
			t.Fatalf("SendUser returned (%v) while its commit was held", err)
		default:
		}
		if args := h.args(); len(args) != 1 || args[0] != "" {
			t.Fatalf("the CLI started before the message was committed: %q", args)
		}
		if time.Now().After(deadline) {
			t.Fatal("SendUser never waited for the commit")
		}
		runtime.Gosched()
	}
	if args := h.args(); len(args) != 1 || args[0] != "" {
		t.Fatalf("the CLI started before the message was committed: %q", args)
	}
	if seq := h.rt.journal.published(); seq != 0 {
		t.Fatalf("the tabs were sent seq %d before the commit", seq)
	}
	release()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitFor):
		t.Fatal("SendUser did not return after the commit")
	}
	// What the answer promised is on disk, whatever happens next.
	msgs := storedFrames(t, st)
	if len(msgs) == 0 || !strings.Contains(string(msgs[0].Data), `"content":"held"`) {
		t.Fatalf("the log after SendUser returned: %d messages", len(msgs))
	}
	a.until(isResult)
	h.stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = persist.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got := storedFrames(t, st); len(got) == 0 || got[0].UUID != msgs[0].UUID {
		t.Fatalf("the message is not in the reopened store")
	}
}

// waitingInCommit reports whether a goroutine waits in produceCommitted.
func waitingInCommit() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "chat.(*journal).produceCommitted") && strings.Contains(g, "[chan receive") {
			return true
		}
	}
	return false
}

// TestFullDiskInput fills the disk, then sends user messages: each fails
// with the storage error, the CLI gets none of them, and once there is
// room the conversation goes on with sequence numbers that have no gap.
func TestFullDiskInput(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	a := attach(t, h.rt, "")
	send(t, h, "first")
	a.until(isResult)
	restore := fillDisk(t, h.store, h.dbPath)
	for i := range 3 {
		err := h.rt.SendUser(t.Context(), fmt.Sprintf("lost %d %s", i, strings.Repeat("x", 200<<10)))
		if !isFull(err) {
			t.Fatalf("send %d on a full disk: %v, want EFBIG", i, err)
		}
	}
	restore()
	send(t, h, "after")
	res := a.until(isResult)
	if !strings.Contains(string(res.raw), "Echo: after") {
		t.Fatalf("the turn after the full disk answered %s", res.raw)
	}
	msgs := storedFrames(t, h.store)
	for i, m := range msgs {
		if m.Seq != uint64(i+1) {
			t.Fatalf("message %d has seq %d: the failed sends left a gap", i, m.Seq)
		}
		if strings.Contains(string(m.Data), "lost ") {
			t.Fatalf("seq %d holds a message that failed: %.100s", m.Seq, m.Data)
		}
	}
	for _, f := range a.frames {
		if strings.Contains(string(f.raw), "lost ") {
			t.Fatalf("a tab or the CLI saw a message that was not stored: %.200s", f.raw)
		}
	}
	sameFrames(t, storedOf(a.frames), msgs)
}

// TestNumberingAfterFailedCommit: A fails to commit (a full disk), B was
// numbered after it and commits in a later transaction; B must fail too
// (with A's cause), and C, numbered after both failed, continues the log
// where it was.
func TestNumberingAfterFailedCommit(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	limit := dbSize(t, h.store, h.dbPath)
	stored := func(id, pad string) []entry {
		msg := fmt.Sprintf(`{"type":"system","subtype":"test","pad":%q,"uuid":%q}`, pad, id)
		return []entry{{kind: kStored, msg: []byte(msg), uuid: id, typ: "system", history: true}}
	}
	entered, hold := h.store.Hold()
	<-entered
	defer hold()
	errA := make(chan error, 1)
	go func() { errA <- h.rt.journal.produceCommitted(stored("a", strings.Repeat("a", int(2*limit)))) }()
	until := func(cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(waitFor)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatal("condition not met in time")
			}
			runtime.Gosched()
		}
	}
	until(func() bool { h.rt.journal.mu.Lock(); defer h.rt.journal.mu.Unlock(); return h.rt.journal.seq == 1 })
	// A second hold, queued behind A, keeps A's transaction open: B then
	// goes into the next one. A is queued once it is numbered (the journal
	// queues under its lock), so the second hold is queued after it.
	entered2, hold2 := h.store.Hold()
	hold()
	<-entered2
	defer hold2()
	errB := make(chan error, 1)
	go func() { errB <- h.rt.journal.produceCommitted(stored("b", "small")) }()
	until(func() bool { h.rt.journal.mu.Lock(); defer h.rt.journal.mu.Unlock(); return h.rt.journal.seq == 2 })
	restore := limitFileSize(t, limit)
	hold2()
	if err := <-errA; !isFull(err) {
		t.Fatalf("A on a full disk: %v, want EFBIG", err)
	}
	restore()
	if err := <-errB; !isFull(err) {
		t.Fatalf("B, numbered after A: %v, want A's EFBIG", err)
	}
	if err := h.rt.journal.produceCommitted(stored("c", "small")); err != nil {
		t.Fatalf("C after the failures: %v", err)
	}
	msgs := storedFrames(t, h.store)
	if len(msgs) != 1 || msgs[0].Seq != 1 || msgs[0].UUID != "c" {
		t.Fatalf("log %+v, want only C at seq 1", msgs)
	}
}

// dbSize is the size of the store's file, at least what go test's own
// access log needs to grow while a file size limit holds (see testlogRoom).
func dbSize(t *testing.T, st *persist.Store, path string) int64 {
	t.Helper()
	if err := <-st.Barrier(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return max(fi.Size(), testlogRoom(t))
}

// fillDisk limits the file size to the store's file and fills what room
// is left in it, until a commit fails: the disk is full.
func fillDisk(t *testing.T, st *persist.Store, path string) (restore func()) {
	t.Helper()
	restore = limitFileSize(t, dbSize(t, st, path))
	for off := int64(0); off < 1<<30; off += 16 << 10 {
		if err := <-st.AppendOutput("filler", off, make([]byte, 16<<10)); err != nil {
			t.Logf("full after %d bytes of filler: %v", off, err)
			return restore
		}
	}
	restore()
	t.Fatal("the disk never filled")
	return nil
}

// isFull reports whether err is the write error of a full disk (bbolt
// formats a failed file resize with %s, so the errno may be text only).
func isFull(err error) bool {
	return err != nil && (errors.Is(err, syscall.EFBIG) || strings.Contains(err.Error(), syscall.EFBIG.Error()))
}

// testlogRoom is a file size that leaves go test's own log of file
// accesses (-test.testlogfile, written by this process while a limit
// holds) room to grow: that log fails the package when it cannot write.
func testlogRoom(t *testing.T) int64 {
	f := flag.Lookup("test.testlogfile")
	if f == nil || f.Value.String() == "" {
		return 0
	}
	fi, err := os.Stat(f.Value.String())
	if err != nil {
		return 0
	}
	return fi.Size() + 256<<10
}

// limitFileSize caps the size of files this process (and the CLIs it
// starts) writes; writes beyond fail with EFBIG, the failure a full disk
// gives, and SIGXFSZ, which would kill the process, is ignored meanwhile.
func limitFileSize(t *testing.T, size int64) (restore func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: uint64(size), Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	done := false
	restore = func() {
		if done {
			return
		}
		done = true
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
		signal.Reset(syscall.SIGXFSZ)
	}
	t.Cleanup(restore)
	return restore
}
