package persist

import (
	"errors"
	"fmt"
	"testing"
)

func ids(rs []Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestSessionsCRUD(t *testing.T) {
	s := newStore(t)
	for _, id := range []string{"b", "a", "c"} {
		must(t, s.Records().PutSession(id, []byte(id+"-v1")))
	}
	must(t, s.Records().PutSession("a", []byte("a-v2")))
	got, err := s.Records().Sessions()
	must(t, err)
	if fmt.Sprint(ids(got)) != "[a b c]" || string(got[0].Value) != "a-v2" {
		t.Fatalf("sessions = %+v", got)
	}
	must(t, s.Records().DeleteSession("b"))
	got, _ = s.Records().Sessions()
	if fmt.Sprint(ids(got)) != "[a c]" {
		t.Errorf("after delete: %v", ids(got))
	}
}

func TestValueIsCopied(t *testing.T) {
	s := newStore(t)
	v := []byte("original")
	must(t, s.Records().PutSession("s", v))
	copy(v, "XXXXXXXX")
	got, _ := s.Records().Sessions()
	got[0].Value[0] = 'Y' // the caller owns what it reads
	again, _ := s.Records().Sessions()
	if string(again[0].Value) != "original" {
		t.Errorf("value = %q", again[0].Value)
	}
}

func TestRecordErrors(t *testing.T) {
	s := newStore(t)
	must(t, s.Records().PutSession("s", nil))
	must(t, s.Records().PutWorker("s", "w", nil))
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"put session empty id", s.Records().PutSession("", nil), ErrInvalid},
		{"put worker empty id", s.Records().PutWorker("s", "", nil), ErrInvalid},
		{"put worker unknown session", s.Records().PutWorker("nope", "w2", nil), ErrNotFound},
		{"delete unknown session", s.Records().DeleteSession("nope"), ErrNotFound},
		{"delete unknown worker", s.Records().DeleteWorker("s", "nope"), ErrNotFound},
		{"delete worker of other session", s.Records().DeleteWorker("nope", "w"), ErrNotFound},
		{"workers of unknown session", func() error { _, err := s.Records().Workers("nope"); return err }(), ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Errorf("err = %v, want %v", tc.err, tc.want)
			}
		})
	}
	if got, _ := s.Records().Workers("s"); len(got) != 1 {
		t.Errorf("a failed op changed workers: %+v", got)
	}
}

func TestWorkersKeyOrder(t *testing.T) {
	s := newStore(t)
	must(t, s.Records().PutSession("s", nil))
	must(t, s.Records().PutSession("t", nil))
	for _, id := range []string{"w3", "w1", "w2"} {
		must(t, s.Records().PutWorker("s", id, []byte(id)))
	}
	must(t, s.Records().PutWorker("t", "x", nil))
	got, err := s.Records().Workers("s")
	must(t, err)
	if fmt.Sprint(ids(got)) != "[w1 w2 w3]" || string(got[2].Value) != "w3" {
		t.Errorf("workers = %+v", got)
	}
	if got, _ := s.Records().Workers("t"); fmt.Sprint(ids(got)) != "[x]" {
		t.Errorf("workers of t = %v", ids(got))
	}
}

// fillWorker gives worker id every kind of data a worker has.
func fillWorker(t *testing.T, s *Store, sid, id string) {
	t.Helper()
	must(t, s.Records().PutWorker(sid, id, []byte(id)))
	mustWait(t, s.AppendMessages(id, msgs(1, 5)))
	mustWait(t, s.AppendOutput(id, 0, []byte("output of "+id)))
	must(t, s.PutProcess(id, Process{Pid: 100}))
}

// checkWorkerData reports whether id still has messages, output or a process.
func checkWorkerData(t *testing.T, s *Store, id string, want bool) {
	t.Helper()
	n, _ := s.MessageCount(id)
	_, end, _ := s.OutputRange(id)
	procs, _ := s.Processes()
	_, hasProc := procs[id]
	_, seqErr := s.SeqOf(id, "uuid-1")
	if got := n > 0 || end > 0 || hasProc || seqErr == nil; got != want {
		t.Errorf("worker %s has data = %v, want %v (count %d, end %d, process %v)", id, got, want, n, end, hasProc)
	}
}

func TestDeleteCascades(t *testing.T) {
	s := newStore(t)
	must(t, s.Records().PutSession("s1", nil))
	must(t, s.Records().PutSession("s2", nil))
	for _, w := range []string{"a", "b"} {
		fillWorker(t, s, "s1", w)
	}
	fillWorker(t, s, "s2", "c")

	must(t, s.Records().DeleteWorker("s1", "a"))
	checkWorkerData(t, s, "a", false)
	checkWorkerData(t, s, "b", true)
	if got, _ := s.Records().Workers("s1"); fmt.Sprint(ids(got)) != "[b]" {
		t.Errorf("workers of s1 = %v", ids(got))
	}

	must(t, s.Records().DeleteSession("s1"))
	checkWorkerData(t, s, "b", false)
	checkWorkerData(t, s, "c", true)
	if _, err := s.Records().Workers("s1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("workers of deleted session: %v", err)
	}
	// A recreated session starts empty.
	must(t, s.Records().PutSession("s1", nil))
	if got, _ := s.Records().Workers("s1"); len(got) != 0 {
		t.Errorf("recreated session has workers %v", ids(got))
	}
}

func TestDeleteDropsOutputQueuedInSameBatch(t *testing.T) {
	s := newStore(t)
	must(t, s.Records().PutSession("s", nil))
	must(t, s.Records().PutWorker("s", "w", nil))
	release := hold(t, s)
	out := s.AppendOutput("w", 0, []byte("pending"))
	del := make(chan error, 1)
	go func() { del <- s.Records().DeleteWorker("s", "w") }()
	// The delete must be queued behind the append before the hold ends.
	mustWait(t, pollQueued(t, s, 2))
	release()
	mustWait(t, out)
	must(t, wait(t, del))
	checkWorkerData(t, s, "w", false)
}
