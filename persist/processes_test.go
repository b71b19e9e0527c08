package persist

import (
	"errors"
	"maps"
	"testing"
)

func TestProcesses(t *testing.T) {
	path := dbPath(t)
	s := openStore(t, path, nil)
	must(t, s.PutProcess("a", 100))
	must(t, s.PutProcess("b", 200))
	must(t, s.PutProcess("a", 101)) // a restarted worker replaces its record
	must(t, s.DeleteProcess("b"))
	must(t, s.DeleteProcess("never")) // deleting nothing is fine
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"empty id", s.PutProcess("", 1)},
		{"zero pgid", s.PutProcess("c", 0)},
		{"negative pgid", s.PutProcess("c", -5)},
		{"delete empty id", s.DeleteProcess("")},
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
	if want := map[string]int{"a": 101}; !maps.Equal(got, want) {
		t.Errorf("processes = %v, want %v", got, want)
	}
}
