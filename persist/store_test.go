package persist

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestReopenKeepsEverything(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	must(t, s.Records().PutSession("s1", []byte(`{"name":"one"}`)))
	must(t, s.Records().PutWorker("s1", "w1", []byte(`{"kind":"sdk"}`)))
	mustWait(t, s.AppendMessages("w1", msgs(1, 3)))
	mustWait(t, s.AppendOutput("w1", 0, []byte("hello")))
	must(t, s.PutProcess("w1", Process{Pid: 4242}))
	must(t, s.Close())

	s = openStore(t, path, nil)
	sessions, err := s.Records().Sessions()
	must(t, err)
	if len(sessions) != 1 || sessions[0].ID != "s1" || string(sessions[0].Value) != `{"name":"one"}` {
		t.Errorf("sessions = %+v", sessions)
	}
	workers, err := s.Records().Workers("s1")
	must(t, err)
	if len(workers) != 1 || workers[0].ID != "w1" || string(workers[0].Value) != `{"kind":"sdk"}` {
		t.Errorf("workers = %+v", workers)
	}
	if got, _ := s.MessagesAfter("w1", 0, 0); len(got) != 3 || got[2].UUID != "uuid-3" {
		t.Errorf("messages = %+v", got)
	}
	if data, off, _ := s.ReadOutput("w1", 0, 100); string(data) != "hello" || off != 0 {
		t.Errorf("output = %q at %d", data, off)
	}
	if procs, _ := s.Processes(); procs["w1"].Pid != 4242 {
		t.Errorf("processes = %v", procs)
	}
}

func TestOpenLockedFailsFast(t *testing.T) {
	path := dbPath(t)
	openStore(t, path, nil)
	start := time.Now()
	s, err := Open(path, &Options{Timeout: 50 * time.Millisecond})
	if err == nil {
		_ = s.Close()
		t.Fatal("second open succeeded")
	}
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "another agentdesk") {
		t.Errorf("message does not tell the user: %v", err)
	}
	t.Logf("failed after %v: %v", time.Since(start), err)
}

func TestFileMode(t *testing.T) {
	path := dbPath(t)
	openStore(t, path, nil)
	fi, err := os.Stat(path)
	must(t, err)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
}

func TestCloseDrainsQueue(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	const n = 2000 // more than the queue holds, so appenders hit back-pressure
	var results []<-chan error
	for i := uint64(1); i <= n; i++ {
		results = append(results, s.AppendMessages("w", []Message{msg(i)}))
		results = append(results, s.AppendOutput("w", int64(i-1), []byte{'x'}))
	}
	must(t, s.Close())
	for i, c := range results {
		select {
		case err := <-c:
			if err != nil {
				t.Fatalf("result %d: %v", i, err)
			}
		default:
			t.Fatalf("result %d not delivered by Close", i)
		}
	}
	s = openStore(t, path, nil)
	if last, _ := s.LastSeq("w"); last != n {
		t.Errorf("last seq = %d, want %d", last, n)
	}
	if _, end, _ := s.OutputRange("w"); end != n {
		t.Errorf("output end = %d, want %d", end, n)
	}
}

func TestClosedStore(t *testing.T) {
	s := newStore(t)
	must(t, s.Close())
	if err := s.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second close = %v", err)
	}
	calls := map[string]func() error{
		"PutSession":     func() error { return s.Records().PutSession("s", nil) },
		"DeleteSession":  func() error { return s.Records().DeleteSession("s") },
		"PutWorker":      func() error { return s.Records().PutWorker("s", "w", nil) },
		"DeleteWorker":   func() error { return s.Records().DeleteWorker("s", "w") },
		"PutProcess":     func() error { return s.PutProcess("w", Process{Pid: 1}) },
		"DeleteProcess":  func() error { return s.DeleteProcess("w") },
		"AppendMessages": func() error { return wait(t, s.AppendMessages("w", msgs(1, 1))) },
		"AppendOutput":   func() error { return wait(t, s.AppendOutput("w", 0, []byte("x"))) },
		"Barrier":        func() error { return wait(t, s.Barrier()) },
		"Sessions":       func() error { _, err := s.Records().Sessions(); return err },
		"Workers":        func() error { _, err := s.Records().Workers("s"); return err },
		"LastSeq":        func() error { _, err := s.LastSeq("w"); return err },
		"SeqOf":          func() error { _, err := s.SeqOf("w", "u"); return err },
		"MessagesAfter":  func() error { _, err := s.MessagesAfter("w", 0, 1); return err },
		"MessageCount":   func() error { _, err := s.MessageCount("w"); return err },
		"OutputRange":    func() error { _, _, err := s.OutputRange("w"); return err },
		"ReadOutput":     func() error { _, _, err := s.ReadOutput("w", 0, 1); return err },
		"Processes":      func() error { _, err := s.Processes(); return err },
		"PutRun":         func() error { return s.PutRun("r") },
		"DeleteRun":      func() error { return s.DeleteRun("r") },
		"Runs":           func() error { _, err := s.Runs(); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			if err := call(); !errors.Is(err, ErrClosed) {
				t.Errorf("err = %v, want ErrClosed", err)
			}
		})
	}
}

func TestBarrierWaitsForEarlierWrites(t *testing.T) {
	s := newStore(t)
	const n = 300
	var results []<-chan error
	for i := uint64(1); i <= n; i++ {
		results = append(results, s.AppendMessages("w", []Message{msg(i)}))
	}
	mustWait(t, s.Barrier())
	for i, c := range results {
		select {
		case err := <-c:
			must(t, err)
		default:
			t.Fatalf("append %d not reported before the barrier", i)
		}
	}
	if last, _ := s.LastSeq("w"); last != n {
		t.Errorf("last seq = %d after barrier, want %d", last, n)
	}
}

func TestRejectedOpDoesNotSpoilBatch(t *testing.T) {
	s := newStore(t)
	release := hold(t, s)
	good1 := s.AppendOutput("w", 0, []byte("ab"))
	badOff := s.AppendOutput("w", 7, []byte("zz"))
	good2 := s.AppendOutput("w", 2, []byte("cd"))
	m1 := s.AppendMessages("w", msgs(1, 2))
	badSeq := s.AppendMessages("w", []Message{msg(2)})
	dup := s.AppendMessages("w", []Message{{Seq: 3, UUID: "uuid-1"}})
	m2 := s.AppendMessages("w", msgs(3, 3))
	release()
	for _, c := range []<-chan error{good1, good2, m1, m2} {
		mustWait(t, c)
	}
	for _, tc := range []struct {
		c    <-chan error
		want error
	}{{badOff, ErrOffset}, {badSeq, ErrSeq}, {dup, ErrDuplicate}} {
		if err := wait(t, tc.c); !errors.Is(err, tc.want) {
			t.Errorf("err = %v, want %v", err, tc.want)
		}
	}
	if data, _, _ := s.ReadOutput("w", 0, 100); string(data) != "abcd" {
		t.Errorf("output = %q", data)
	}
	if n, _ := s.MessageCount("w"); n != 3 {
		t.Errorf("count = %d, want 3", n)
	}
}

func TestHalfDoneOpIsRolledBack(t *testing.T) {
	s := newStore(t)
	boom := errors.New("boom")
	release := hold(t, s)
	before := s.w.enqueue(&op{apply: func(w *wtx) error { return w.tx.Bucket(bSessions).Put([]byte("a"), []byte("1")) }})
	half := s.w.enqueue(&op{apply: func(w *wtx) error {
		if err := w.tx.Bucket(bSessions).Put([]byte("b"), []byte("2")); err != nil {
			return err
		}
		return boom
	}})
	out := s.AppendOutput("w", 0, []byte("kept"))
	release()
	mustWait(t, before)
	mustWait(t, out)
	if err := wait(t, half); !errors.Is(err, boom) {
		t.Fatalf("half = %v, want boom", err)
	}
	sessions, err := s.Records().Sessions()
	must(t, err)
	if len(sessions) != 1 || sessions[0].ID != "a" {
		t.Errorf("sessions = %+v, want only a", sessions)
	}
	if data, _, _ := s.ReadOutput("w", 0, 10); !bytes.Equal(data, []byte("kept")) {
		t.Errorf("output = %q", data)
	}
}
