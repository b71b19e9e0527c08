package persist

import (
	"errors"
	"maps"
	"slices"
	"testing"
)

// TestTrees: a tree is kept for the worker's recorded process only, goes
// with its record (deleted or replaced by a new process), and survives a
// reopen; a stale tree (another root) stores nothing.
func TestTrees(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	a := Process{Pid: 101, Start: 5555, Marker: "a/run1", Boot: "boot"}
	b := Process{Pid: 201, Start: 6666, Boot: "boot"}
	tree := []Member{{Pid: 102, Start: 5560}, {Pid: 103, Start: 5570}}
	must(t, s.PutTree("a", a, tree)) // no record yet: nothing stored
	must(t, s.PutProcess("a", a))
	must(t, s.PutProcess("b", b))
	must(t, s.PutProcess("c", Process{Pid: 301, Start: 1, Boot: "boot"}))
	must(t, s.PutTree("a", a, tree))
	must(t, s.PutTree("a", Process{Pid: 101, Start: 1}, []Member{{Pid: 9, Start: 9}})) // stale: another process
	must(t, s.PutTree("b", b, []Member{{Pid: 202, Start: 6667}}))
	must(t, s.PutTree("c", Process{Pid: 301, Start: 1}, []Member{{Pid: 302, Start: 2}}))
	must(t, s.PutProcess("b", Process{Pid: 211, Start: 7777, Boot: "boot"})) // b restarted: its old tree goes
	must(t, s.DeleteProcess("c"))
	for name, err := range map[string]error{
		"empty id": s.PutTree("", a, nil),
		"zero pid": s.PutTree("a", Process{}, nil),
		"too many": s.PutTree("a", a, make([]Member, MaxTree+1)),
	} {
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	must(t, s.Close())

	s = openStore(t, path, nil)
	got, err := s.Trees()
	must(t, err)
	if want := map[string][]Member{"a": tree}; !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("trees = %v, want %v", got, want)
	}
	procs, err := s.Processes()
	must(t, err)
	if p := procs["a"]; p != a || !p.HasIdentity() {
		t.Errorf("record %+v (identity %v), want %+v", p, p.HasIdentity(), a)
	}
	if p := (Process{Pid: 1, Start: 2, Boot: "boot"}); !p.HasIdentity() {
		t.Errorf("%+v: a boot id and a start time identify a process without a marker", p)
	}
}
