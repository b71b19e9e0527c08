package persist

import (
	"errors"
	"maps"
	"slices"
	"testing"
)

func TestProcesses(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	a := Process{Pid: 101, Start: 5555, Marker: "a/run1"}
	must(t, s.PutProcess("a", Process{Pid: 100}))
	must(t, s.PutProcess("b", Process{Pid: 200}))
	must(t, s.PutProcess("a", a)) // a restarted worker replaces its record
	must(t, s.DeleteProcess("b"))
	must(t, s.DeleteProcess("never")) // deleting nothing is fine
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"empty id", s.PutProcess("", Process{Pid: 1})},
		{"zero pid", s.PutProcess("c", Process{Pid: 0})},
		{"negative pid", s.PutProcess("c", Process{Pid: -5})},
		{"delete empty id", s.DeleteProcess("")},
		{"empty run", s.PutRun("")},
		{"delete empty run", s.DeleteRun("")},
	} {
		if !errors.Is(tc.err, ErrInvalid) {
			t.Errorf("%s: %v", tc.name, tc.err)
		}
	}
	must(t, s.Close())

	// What a start after a crash sees.
	s = openStore(t, path, nil)
	got, err := s.Processes()
	must(t, err)
	if want := map[string]Process{"a": a}; !maps.Equal(got, want) {
		t.Errorf("processes = %v, want %v", got, want)
	}
	if !got["a"].HasIdentity() {
		t.Errorf("%+v has no identity", got["a"])
	}
}

// TestOldProcessRecords: a record of an older version (the bare pgid,
// 8 bytes big-endian) reads back as a pid without identity, which the
// clean-up must not signal.
func TestOldProcessRecords(t *testing.T) {
	s := openStore(t, dbPath(t), nil)
	must(t, s.w.do(func(w *wtx) error {
		return w.tx.Bucket(bProcesses).Put([]byte("old"), u64(4242))
	}))
	got, err := s.Processes()
	must(t, err)
	if p := got["old"]; p != (Process{Pid: 4242}) || p.HasIdentity() {
		t.Errorf("old record reads as %+v (identity %v)", p, p.HasIdentity())
	}
}

func TestRuns(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	if runs, err := s.Runs(); err != nil || len(runs) != 0 {
		t.Fatalf("runs of a new file = %v, %v", runs, err)
	}
	must(t, s.DeleteRun("none")) // before the bucket exists: fine
	must(t, s.PutRun("r2"))
	must(t, s.PutRun("r1"))
	must(t, s.PutRun("r3"))
	must(t, s.DeleteRun("r3"))
	must(t, s.Close())
	s = openStore(t, path, nil)
	runs, err := s.Runs()
	must(t, err)
	if want := []string{"r1", "r2"}; !slices.Equal(runs, want) {
		t.Errorf("runs = %v, want %v", runs, want)
	}
}
